import type { Context } from '@ai-sdk/provider-utils';
import {
  type GenerateTextResult,
  type OutputInterface,
  generateText as sdkGenerateText,
  type ToolSet,
} from 'ai';
import { type GracefulCallOptions, guardCallOptions } from './guard-call-options.js';

type SdkGenerateTextOptions<
  TOOLS extends ToolSet,
  RUNTIME_CONTEXT extends Context,
  OUTPUT extends OutputInterface,
> = Parameters<typeof sdkGenerateText<TOOLS, RUNTIME_CONTEXT, OUTPUT>>[0];

/**
 * The AI SDK's `generateText` with the guard: same options, same result type — change only the import.
 * Your `maxRetries` (default 2) becomes the guard's retry count (transient errors only, classified, with backoff
 * and retry-after); the SDK itself runs with `maxRetries: 0`. Attempt records are in
 * `providerMetadata['graceful-ai'].attempts` of each step.
 */
export function generateText<
  TOOLS extends ToolSet,
  RUNTIME_CONTEXT extends Context = Context,
  OUTPUT extends OutputInterface = OutputInterface<string, string>,
>(
  options: SdkGenerateTextOptions<TOOLS, RUNTIME_CONTEXT, OUTPUT> & GracefulCallOptions,
): Promise<GenerateTextResult<TOOLS, RUNTIME_CONTEXT, OUTPUT>> {
  return sdkGenerateText<TOOLS, RUNTIME_CONTEXT, OUTPUT>(guardCallOptions(options));
}
