/**
 * The ONLY places where graceful-ai's drop-ins may behave differently from `ai`'s `streamText`/`generateText`.
 * Each entry says where (a matcher over the scenario and the compared path) and why. docs/streaming.md lists the
 * same entries, in this order, under "Differences from `ai`" (a test checks it). At most 10 entries: every
 * difference not matched here fails the conformance suite with its path and both values.
 *
 * Paths start with what was observed: `stream`, `textStream`, `callbacks[i]` (`.name`, `.arg`), `chunks[i]`
 * (`onChunk`'s arguments), `result.<field>`
 * (`.value` / `.rejected` for streamText's promises), `ui`, `uiEnd`, `uiResponse`, `pipe`, `requests.doStream[i]`
 * / `requests.doGenerate[i]` (what the provider received), `log` (what tools saw), `warnings` (logged by the SDK).
 */
import type { Api, Tag } from './observe.js';

/** One place where the two runs differ. */
export interface DifferenceSite {
  scenario: { id: string; tags: readonly Tag[] };
  api: Api;
  /** e.g. `stream[3].providerMetadata.graceful-ai.attempts` or `requests.doStream[1].prompt`. */
  path: string;
  /** The callback the path is in (`onStepEnd`, …), when it is under `callbacks[i]`. */
  callback?: string;
  /** `ai`'s value there (`undefined`: absent). */
  ai: unknown;
  /** The drop-in's value there (`undefined`: absent). */
  dropIn: unknown;
}

export interface AllowedDifference {
  id: string;
  where: (site: DifferenceSite) => boolean;
  reason: string;
}

const has = (site: DifferenceSite, tag: Tag) => site.scenario.tags.includes(tag);

/**
 * Input that fails the schema goes through the wrapped tool (so it counts against `retries`): the call is a valid
 * tool call that the tool then fails. Everything the SDK derives from "invalid" differs accordingly — the call is
 * static, executed (execution callbacks and timing), and its failure is a tool error (`tool-error` part, UI
 * `tool-output-error`) rather than an invalid call (`tool-input-error`). What the provider receives is still
 * compared (its text difference is the one above).
 */
const invalidInputRouted = (site: DifferenceSite) =>
  site.scenario.id.startsWith('tools/invalid-tool-input') && !/^requests\./.test(site.path);

/** The UI chunk that ends a failed run. */
const isErrorFinish = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  (value as { type?: unknown }).type === 'finish' &&
  (value as { finishReason?: unknown }).finishReason === 'error';

/** Where the model and the UI read a tool failure's text: the error's `toString()`, the error output, the UI. */
const toolErrorText = /(\.error|\.error\.text|\.output\.value|\.errorText)$/;

export const allowedDifferences: AllowedDifference[] = [
  {
    id: 'guard-owns-retries',
    where: (site) =>
      (has(site, 'retry-before-output') &&
        /^callbacks\[\d+\]$/.test(site.path) &&
        site.dropIn === undefined &&
        /^(experimental_)?onLanguageModelCallStart$/.test(site.callback ?? '')) ||
      (has(site, 'recovery-attempted') &&
        /^requests\.(doStream|doGenerate)\[\d+\]/.test(site.path) &&
        site.ai === undefined),
    reason:
      "The guard is the single retry authority: the SDK runs with maxRetries 0 and sees one model call per step, so streamText's onLanguageModelCallStart fires once per step, not once per attempt; and after output the guard makes one recovery request (doGenerate) the SDK would not make.",
  },
  {
    id: 'attempt-records',
    where: (site) => {
      if (!(has(site, 'retry-before-output') || has(site, 'guard-recovers')) || site.ai !== undefined)
        return false;
      // Added to a providerMetadata ai has, or a providerMetadata holding nothing but the records.
      if (/\.providerMetadata(\.value)?\.graceful-ai$/.test(site.path)) return true;
      const added = site.dropIn;
      return (
        /(^|\.)providerMetadata(\.value)?$/.test(site.path) &&
        typeof added === 'object' &&
        added !== null &&
        Object.keys(added).join() === 'graceful-ai'
      );
    },
    reason:
      "When a retry or a recovery happened, the guard's attempt records are in providerMetadata['graceful-ai'] (finish part, step, result, callbacks). A clean first attempt carries none.",
  },
  {
    id: 'recovered-answer',
    where: (site) => has(site, 'guard-recovers') && !/^(experimental_)?onStart$/.test(site.callback ?? ''),
    reason:
      "Where the guard recovers a failure the SDK does not (an error part, a stream error or a clean end without content before output, an empty answer, a stall under timeout.chunkMs, a transient failure after output, a history with a tool call but no result, which ai refuses to send), the drop-in's run is the recovered answer's: other requests, parts, callbacks and results than ai's failed, partial or empty run.",
  },
  {
    id: 'interrupted-before-output-fails',
    where: (site) =>
      has(site, 'interrupted-before-output') && !/^(experimental_)?onStart$/.test(site.callback ?? ''),
    reason:
      "A stream that ends before any output without a finish part, or with a finish that is no completion ('interrupted', 'error', 'other' with no provider reason), is a failure to the guard, not an empty answer: retried like any transient failure before output, and with no retry left (maxRetries 0) reported the SDK's way as a StreamInterruptedError (an error part, onError, onEnd and the UI error chunk; the answer fields reject), where ai passes on an empty step. An empty answer ('content-filter', or 'other' with the provider's reason) is retried once and then reported the same way as an EmptyAnswerError, streamed or not.",
  },
  {
    id: 'rejects-after-unrecovered-failure',
    where: (site) =>
      has(site, 'unrecovered-failure') &&
      ((/^result\.\w+\.value(\.|\[|$)/.test(site.path) && site.dropIn === undefined) ||
        /^result\.\w+\.rejected(\.|\[|$)/.test(site.path)),
    reason:
      "After a failure nothing recovers, streamText's result.text, steps, content (and their siblings) reject with the failure itself instead of resolving with the partial (possibly empty) answer, or rejecting with a NoOutputGeneratedError that does not say why, so a partial answer never passes for a complete one. The stream, onError, onEnd and the UI report the error as in ai.",
  },
  {
    id: 'stream-errors-surfaced',
    where: (site) =>
      has(site, 'stream-throws') &&
      (/^(stream|textStream|ui|uiEnd|uiResponse|pipe|callbacks|chunks)(\.|\[|$)/.test(site.path) ||
        /^result\.(finishReason|rawFinishReason|usage|totalUsage|warnings|request|providerMetadata)\./.test(
          site.path,
        )) &&
      !/^(experimental_)?onStart$/.test(site.callback ?? ''),
    reason:
      "When the provider's stream itself errors (a reset without an error part) and nothing recovers it, ai's fullStream, textStream and UI streams throw, only onStepError runs and every result promise rejects; the drop-in reports it the SDK's way instead: an error part, onError, onEnd/onFinish and the UI error chunk, with finishReason 'error' (the answer fields still reject).",
  },
  {
    id: 'graceful-tool-error-text',
    where: (site) =>
      has(site, 'tool-error-text') &&
      ((typeof site.ai === 'string' && typeof site.dropIn === 'string' && toolErrorText.test(site.path)) ||
        invalidInputRouted(site)),
    reason:
      "A tool that throws, invalid tool input and unknown tool names reach the model (and the UI's errorText) with graceful-ai's text (what failed, the cause, what to do; bounded and redacted) instead of the SDK's bare toString(). Error objects keep their identity and fields (only their toString() gives the new text); a thrown non-Error value is replaced by the text. Input that fails the tool's schema is validated by the wrapped tool, so the model call's content holds a valid tool call (not invalid/dynamic) and the failure counts against the tool's retries.",
  },
  {
    id: 'failed-recovery',
    where: (site) =>
      has(site, 'recovery-attempted') &&
      has(site, 'unrecovered-failure') &&
      /^(stream|ui|chunks|callbacks|result)(\.|\[|$)/.test(site.path),
    reason:
      "When the guard's recovery request after output fails too, the stream ends with an error part carrying that request's error and a finish of the guard's own (finishReason 'error', usage unknown), since the provider's stream was released for the recovery; the original failure is in the attempt records and the stream_failed event.",
  },
  {
    id: 'ui-finish-after-error',
    where: (site) =>
      /^(ui|uiResponse\.body|pipe\.body)\[\d+\]$/.test(site.path) &&
      ((isErrorFinish(site.dropIn) && (site.ai === undefined || site.ai === '[DONE]')) ||
        (site.dropIn === '[DONE]' && site.ai === undefined)),
    reason:
      "A UI stream whose run failed before its first step (ai's ends with the error chunk) ends with the error, then { type: 'finish', finishReason: 'error' }, as the UI stream of every failed run does; onEnd and the other callbacks see ai's own chunks (their outcome is ai's).",
  },
];
