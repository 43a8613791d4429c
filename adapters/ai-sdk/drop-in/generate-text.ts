import type { Context } from '@ai-sdk/provider-utils';
import {
  type GenerateTextResult,
  type OutputInterface,
  generateText as sdkGenerateText,
  type ToolSet,
} from 'ai';
import { type GracefulCallOptions, guardCallOptions } from './guard-call-options.js';

/** The drop-in `generateText`'s options: the AI SDK's own, plus {@link GracefulCallOptions}. */
export type GracefulGenerateTextOptions<
  TOOLS extends ToolSet = ToolSet,
  RUNTIME_CONTEXT extends Context = Context,
  OUTPUT extends OutputInterface = OutputInterface<string, string>,
> = Parameters<typeof sdkGenerateText<TOOLS, RUNTIME_CONTEXT, OUTPUT>>[0] & GracefulCallOptions;

/**
 * The AI SDK's `generateText` with the guard: same options, same result type — change only the import.
 * Your `maxRetries` (default 2) becomes the guard's retry count (transient errors only, classified, with backoff
 * and retry-after); the SDK itself runs with `maxRetries: 0`. Attempt records are in
 * `providerMetadata['graceful-ai'].attempts` of each step. A prompt holding what a stream reset discarded (e.g.
 * built from stored chat messages) is sent without it.
 *
 * The run is under a turn deadline (`turnTimeoutMs`, default 300 000 ms; `false` = none): `onTurnDeadline`
 * receives which tool calls completed, timed out and were skipped. Invalid options reject (e.g. a `RangeError`
 * naming `turnTimeoutMs`); the deadline's timer is stopped however the call ends.
 */
export async function generateText<
  TOOLS extends ToolSet,
  RUNTIME_CONTEXT extends Context = Context,
  OUTPUT extends OutputInterface = OutputInterface<string, string>,
>(
  options: GracefulGenerateTextOptions<TOOLS, RUNTIME_CONTEXT, OUTPUT>,
): Promise<GenerateTextResult<TOOLS, RUNTIME_CONTEXT, OUTPUT>> {
  const { options: sdkOptions, turn } = guardCallOptions(options, 'generateText');
  try {
    return await sdkGenerateText<TOOLS, RUNTIME_CONTEXT, OUTPUT>(sdkOptions);
  } finally {
    turn?.close(); // a rejection outside a step (e.g. a loud tool failure) ends no SDK callback
  }
}
