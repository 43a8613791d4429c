import { InvalidToolInputError, NoSuchToolError, type ToolCallRepairFunction, type ToolSet } from 'ai';
import { attachModelText, formatToolError } from '../../src/errors/format-for-model.js';
import type { RedactOption } from '../../src/errors/redact.js';
import { UnexpectedModelBehavior } from '../../src/errors/unexpected-model-behavior.js';
import { defaultLogger, type Logger } from '../../src/observe/logger.js';
import { toolRetries } from './graceful-tool.js';
import { countConsecutiveFailures } from './tool-failure-count.js';

/** Options of `gracefulRepairToolCall`. */
export interface GracefulRepairOptions<TOOLS extends ToolSet = ToolSet> {
  /**
   * Budget for a tool name the model invented (default 1): failure number `retries + 1` in a row fails
   * the run (best effort, see docs/graceful-tool.md). Calls of a known tool use that tool's own `retries`.
   */
  retries?: number;
  /** Upper bound of the model-visible text (default 2000). */
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
  const logger = options.logger ?? defaultLogger;
  return async (args) => {
    if (options.repair) {
      const repaired = await options.repair(args);
      if (repaired) return repaired;
    }
    const { error, toolCall, tools, messages } = args;
    if (!NoSuchToolError.isInstance(error) && !InvalidToolInputError.isInstance(error)) return null;
    const toolName = toolCall.toolName;
    const known = tools != null && Object.hasOwn(tools, toolName);
    const retries = known
      ? toolRetries(tools[toolName], options.retries)
      : toolRetries(undefined, options.retries);
    const retry = countConsecutiveFailures(messages, (part) => part.toolName === toolName);
    const available = tools == null ? [] : Object.keys(tools);
    // The SDK's NoSuchToolError already names the available tools when it knows them.
    const details = NoSuchToolError.isInstance(error)
      ? error.availableTools === undefined
        ? `Call one of the available tools instead: ${available.join(', ') || '(none)'}.`
        : undefined
      : 'The arguments must be one valid JSON object matching the tool’s input schema.';
    if (retry >= retries) {
      logger.debug('invalid tool call exceeded its retries; failing the run', { toolName, retries });
      failRunFrom(error, new UnexpectedModelBehavior({ toolName, retries, cause: error }));
      return null;
    }
    const text = formatToolError(error, {
      details,
      maxErrorChars: options.maxErrorChars,
      redact: options.redact,
    });
    logger.debug('invalid tool call converted for the model', { toolName, retry, maxRetries: retries });
    attachModelText(error, text);
    return null;
  };
}

/**
 * The SDK renders an invalid call's error with `toString()` while building the step; a throwing `toString`
 * is the only way a repair hook can fail the run (the drop-ins can abort instead).
 */
function failRunFrom(error: object, runError: Error): void {
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
