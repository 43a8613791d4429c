/** The SDK's `onError` event. */
export type OnRunError = (event: { error: unknown }) => unknown;

/**
 * A run's `onError`, called once per run. The SDK calls it for each `error` part it streams; a run whose stream
 * broke instead (a loud tool failure, a used-up budget) reaches it only through {@link RunErrorReport.report},
 * whichever of the run's streams is read first. Without an `onError`, the error is logged as the SDK's default does.
 */
export class RunErrorReport {
  #reported = false;

  constructor(private readonly onError: OnRunError | undefined) {}

  /** The SDK reported an `error` part itself. */
  reportedBySdk(): void {
    this.#reported = true;
  }

  /** Calls `onError` with `error` unless the run already reported one; a throwing callback is ignored, as in the SDK. */
  async report(error: unknown): Promise<void> {
    if (this.#reported) return;
    this.#reported = true;
    try {
      if (this.onError) await this.onError({ error });
      else console.error(error);
    } catch {
      // The SDK ignores what its callbacks throw.
    }
  }
}
