/**
 * The harness itself: `ai` compared with `ai` must show no difference at all in any scenario (no allowed
 * differences applied). This proves the normaliser removes every source of non-determinism and that each
 * scenario is reproducible, so a difference in conformance.test.ts is the drop-in's, not the harness's.
 */
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { type LanguageModel, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compare } from './compare.js';
import { formatDifferences } from './diff.js';
import { sdk } from './implementations.js';
import { type Api, type Implementation, installWarningCapture } from './observe.js';
import { cases, scenarios } from './scenarios.js';

let restoreWarnings: () => void;
beforeAll(() => {
  restoreWarnings = installWarningCapture();
});
afterAll(() => restoreWarnings());

describe('the scenario table', () => {
  it('has at least 150 scenarios with unique ids, run through both APIs where they apply', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(150);
    expect(cases.length).toBeGreaterThan(scenarios.length);
    expect(new Set(scenarios.map((s) => s.id)).size).toBe(scenarios.length);
    const perApi = { stream: 0, generate: 0 };
    for (const { api } of cases) perApi[api]++;
    expect(perApi.generate).toBeGreaterThanOrEqual(60);
    expect(perApi.stream).toBeGreaterThanOrEqual(perApi.generate);
  });
});

describe('ai against itself: the harness is deterministic', () => {
  for (const { scenario, api } of cases.filter((c) => !c.scenario.slow)) {
    it(`${api}Text ${scenario.id}`, async () => {
      const { differences } = await compare(scenario, api, sdk, sdk, { graceful: false, allowed: [] });
      if (differences.length > 0)
        throw new Error(`ai differs from itself:\n${formatDifferences(differences)}`);
    });
  }
});

// ---- the suite notices the mistakes a drop-in is likely to make ----

type Options = Record<string, unknown>;
type Loose = (options: Options) => unknown;

/** `ai` with one deliberate mistake in how it passes the caller's options on. */
function mutant(
  name: string,
  change: (options: Options) => Options,
  model?: (m: LanguageModel) => LanguageModel,
) {
  const rewrite = (options: Options) => {
    const changed = change(options);
    return model ? { ...changed, model: model(changed.model as LanguageModel) } : changed;
  };
  return {
    name,
    streamText: ((options: Options) =>
      (sdk.streamText as unknown as Loose)(rewrite(options))) as unknown as typeof sdk.streamText,
    generateText: ((options: Options) =>
      (sdk.generateText as unknown as Loose)(rewrite(options))) as unknown as typeof sdk.generateText,
  };
}

/** Tools copied the naive way: `{ ...tool }` (drops the prototype and non-enumerable keys), `execute` called unbound. */
function spreadTools(options: Options): Options {
  const tools = options.tools as Record<string, { execute?: (...args: unknown[]) => unknown }> | undefined;
  if (!tools) return options;
  const copies = Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => {
      const execute = tool.execute;
      return [name, { ...tool, ...(execute ? { execute: (...args: unknown[]) => execute(...args) } : {}) }];
    }),
  );
  return { ...options, tools: copies };
}

/** The model with each stream part passed through `map` (a part mapped to `undefined` is dropped). */
const mapParts =
  (map: (part: LanguageModelV4StreamPart) => LanguageModelV4StreamPart | undefined) =>
  (model: LanguageModel) =>
    wrapLanguageModel({
      model: model as Exclude<LanguageModel, string>,
      middleware: {
        specificationVersion: 'v4',
        wrapStream: async ({ doStream }) => {
          const result = await doStream();
          const stream = result.stream.pipeThrough(
            new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
              transform(part, controller) {
                const mapped = map(part);
                if (mapped !== undefined) controller.enqueue(mapped);
              },
            }),
          );
          return { ...result, stream };
        },
      },
    });

const withMetadata = mapParts((part) =>
  part.type === 'finish' ? { ...part, providerMetadata: { 'graceful-ai': { attempts: [] } } } : part,
);

const withoutErrorParts = mapParts((part) => (part.type === 'error' ? undefined : part));

const mistakes: { mistake: string; impl: Implementation; scenario: string; api: Api; at: RegExp }[] = [
  {
    mistake: 'a class tool copied with { ...tool } loses its prototype execute',
    impl: mutant('spread tools', spreadTools),
    scenario: 'tools/class-tool-this/modern',
    api: 'generate',
    at: /^(log|requests|result)/,
  },
  {
    mistake: 'a tool copied with { ...tool } loses a non-enumerable property execute reads',
    impl: mutant('spread tools', spreadTools),
    scenario: 'tools/non-enumerable-property',
    api: 'stream',
    at: /^log\[0\]\.data\.region$/,
  },
  {
    mistake:
      'a tool copied with { ...tool } loses experimental_toolCaller (allowedCallers never reaches the provider)',
    impl: mutant('spread tools', spreadTools),
    scenario: 'tools/experimental-tool-callers',
    api: 'stream',
    at: /^requests\.doStream\[0\]\.tools/,
  },
  {
    mistake: 'maxRetries: 0 underneath shows in onStart',
    impl: mutant('maxRetries 0', (o) => ({ ...o, maxRetries: 0 })),
    scenario: 'content/text/one-delta/modern',
    api: 'stream',
    at: /^callbacks\[0\]\.arg\.maxRetries$/,
  },
  {
    mistake: 'the deprecated onFinish is dropped',
    impl: mutant('no onFinish', (o) => ({ ...o, onFinish: undefined })),
    scenario: 'content/text/one-delta/deprecated',
    api: 'generate',
    at: /^callbacks\[\d+\]$/,
  },
  {
    mistake: "generateText's timeout.chunkMs taken away (no SDK warning)",
    impl: mutant('no chunkMs', (o) => ({ ...o, timeout: { ...(o.timeout as object), chunkMs: undefined } })),
    scenario: 'timeout/chunkMs/no-stall',
    api: 'generate',
    at: /^warnings\[0\]/,
  },
  {
    mistake: 'attempt records on a clean first attempt',
    impl: mutant('metadata', (o) => o, withMetadata),
    scenario: 'content/text/one-delta/modern',
    api: 'stream',
    at: /providerMetadata/,
  },
  {
    mistake: 'an error part swallowed',
    impl: mutant('no error parts', (o) => o, withoutErrorParts),
    scenario: 'after-output/error-part/context-overflow',
    api: 'stream',
    at: /^stream\[\d+\]$/,
  },
];

describe('the suite catches the mistakes a drop-in is likely to make', () => {
  for (const { mistake, impl, scenario: id, api, at } of mistakes) {
    it(mistake, async () => {
      const scenario = scenarios.find((s) => s.id === id);
      if (!scenario) throw new Error(`no scenario ${id}`);
      const { unexplained } = await compare(scenario, api, sdk, impl, { graceful: false });
      expect(unexplained.map((d) => d.path).filter((path) => at.test(path))).not.toEqual([]);
    });
  }
});
