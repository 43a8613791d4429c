/** The SDK's `onError` event. */
export type OnRunError = (event: { error: unknown }) => unknown;

/**
 * A run's `onError`, called once per run. The SDK calls it for each `error` part it streams (`reportedBySdk`); a run
 * whose stream broke instead (a loud tool failure, a used-up budget) reaches it only through `report`, whichever of
 * the run's streams is read first. Without an `onError`, the error is logged as the SDK's default does.
 */
export interface RunErrorReport {
  /** The SDK reported an `error` part itself. */
  reportedBySdk(): void;
  /** Calls `onError` with `error` unless the run already reported one; a throwing callback is ignored, as in the SDK. */
  report(error: unknown): Promise<void>;
}

export function runErrorReport(onError: OnRunError | undefined): RunErrorReport {
  let reported = false;
  return {
    reportedBySdk: () => {
      reported = true;
    },
    async report(error) {
      if (reported) return;
      reported = true;
      try {
        await (onError ? onError({ error }) : console.error(error));
      } catch {
        // The SDK ignores what its callbacks throw.
      }
    },
  };
}
