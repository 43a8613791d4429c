import { InvalidToolInputError, NoSuchToolError, type ToolCallRepairFunction, type ToolSet } from 'ai';
import { attachModelText } from '../../../src/model-text/format-for-model.js';
import { modelText } from '../../../src/model-text/model-text.js';
import type { RedactOption } from '../../../src/redact/redact.js';
import { defaultLogger, type Logger } from '../../../src/util/logger.js';
import { checkCount, checkFunction, checkOptionsObject, checkSize } from '../../../src/util/validate.js';
import { defaultToolRetries, toolRetries } from './graceful-tool.js';
import { failuresInARow, judgeToolFailure } from './tool-failure.js';

/** Options of `gracefulRepairToolCall`. */
export interface GracefulRepairOptions<TOOLS extends ToolSet = ToolSet> {
  /**
   * Budget for a tool name the model invented: failure number `retries + 1` in a row fails the run (best effort,
   * see docs/graceful-tool.md). Calls of a known tool use that tool's own `retries`.
   * @default 1
   */
  retries?: number;
  /**
   * Upper bound of the model-visible text (an integer ≥ 64).
   * @default 2000
   */
  maxErrorChars?: number;
  /** Extra redaction on top of the built-in secret rules. */
  redact?: RedactOption;
  /** Receives one `debug` line per converted error (default: `NODE_DEBUG=graceful-ai` only). */
  logger?: Logger;
  /** Your own repair, tried first; when it returns a tool call, that call is used. */
  repair?: ToolCallRepairFunction<TOOLS>;
}

/**
 * A `repairToolCall` hook for `generateText` / `streamText` / `ToolLoopAgent` (the drop-ins install it):
 * tool calls the SDK cannot parse — an unknown tool name (`NoSuchToolError`) or arguments that are not JSON
 * (`InvalidToolInputError`; schema failures of wrapped tools never get here, `gracefulTool` handles them) —
 * reach the model through `formatToolError`, with the available tool names, and count against that name's
 * budget in this run. It repairs nothing itself (returns `null` unless your own `repair` does), so the SDK
 * reports the call as invalid with our text. The original error object stays on the tool-call part's `error`.
 */
export function gracefulRepairToolCall<TOOLS extends ToolSet = ToolSet>(
  options: GracefulRepairOptions<TOOLS> = {},
): ToolCallRepairFunction<TOOLS> {
  return repairHook(options, undefined);
}

/**
 * {@link gracefulRepairToolCall}, telling `onFailRun` when a used-up budget fails the run: `generateText` rejects
 * by itself, but `streamText` only reports it in an `error` part, so a drop-in makes its answer fields reject.
 */
export function repairHook<TOOLS extends ToolSet = ToolSet>(
  options: GracefulRepairOptions<TOOLS>,
  onFailRun: ((error: unknown) => void) | undefined,
): ToolCallRepairFunction<TOOLS> {
  checkOptionsObject('gracefulRepairToolCall options', options);
  checkCount('retries', options.retries);
  checkSize('maxErrorChars', options.maxErrorChars, 64);
  checkFunction('repair', options.repair);
  const logger = options.logger ?? defaultLogger;
  const retries = options.retries ?? defaultToolRetries;
  return async (args) => {
    if (options.repair) {
      const repaired = await options.repair(args);
      if (repaired) return repaired;
    }
    const { error, toolCall, tools, messages } = args;
    if (!NoSuchToolError.isInstance(error) && !InvalidToolInputError.isInstance(error)) return null;
    const toolName = toolCall.toolName;
    const known = tools != null && Object.hasOwn(tools, toolName);
    const available = tools == null ? [] : Object.keys(tools);
    // The SDK's NoSuchToolError already names the available tools when it knows them.
    const details = NoSuchToolError.isInstance(error)
      ? error.availableTools === undefined
        ? modelText.unknownTool(available)
        : undefined
      : modelText.invalidJson;
    const verdict = judgeToolFailure({
      failure: error,
      toolName,
      toolCallId: toolCall.toolCallId,
      retry: failuresInARow(messages, toolName),
      retries: known ? toolRetries(tools[toolName], retries) : retries,
      graceful: true,
      maxErrorChars: options.maxErrorChars,
      redact: options.redact,
      details,
    });
    if (verdict.kind === 'fail-run') {
      logger.debug('invalid tool call exceeded its retries; failing the run', { toolName });
      failRunFrom(error, verdict.error);
      onFailRun?.(verdict.error);
      return null;
    }
    logger.debug('invalid tool call converted for the model', { toolName });
    attachModelText(error, verdict.text);
    return null;
  };
}

/**
 * The SDK renders an invalid call's error with `toString()` while building the step; a throwing `toString`
 * is the only way a repair hook can fail the run (the drop-ins can abort instead).
 */
function failRunFrom(error: object, runError: unknown): void {
  try {
    Object.defineProperty(error, 'toString', {
      value: () => {
        throw runError;
      },
      configurable: true,
    });
  } catch {
    // A frozen error: the model sees the SDK's own text instead.
  }
}
