/**
 * The scenario table: every scenario runs through `ai` and through the drop-in on the same scripted provider.
 * Families are generated from a few axes (content × callback style, status × outcome × maxRetries, …) rather than
 * written one by one. Tags state facts the allowed differences may rely on (see observe.ts `Tag`).
 */
import {
  dynamicTool,
  experimental_toolCaller,
  hasToolCall,
  isStepCount,
  jsonSchema,
  Output,
  smoothStream,
  tool,
} from 'ai';
import { z } from 'zod';
import { type Answer, type ErrorFactory, errors, type Piece, type Reply } from './model-script.js';
import type { Api, CallbackStyle, RunContext, Scenario, Tag } from './observe.js';

// ---- building blocks ----

const text = (value: string, deltas = 1): Piece => ({ type: 'text', text: value, deltas });
const reasoning = (value: string, deltas = 1): Piece => ({ type: 'reasoning', text: value, deltas });
const call = (toolName: string, input: unknown, toolCallId = 'call-1', streamInput = false): Piece => ({
  type: 'tool-call',
  toolName,
  input: typeof input === 'string' ? input : JSON.stringify(input),
  toolCallId,
  streamInput,
});
const answer = (content: Piece[], extra: Omit<Answer, 'content'> = {}): Reply => ({
  answer: { content, ...extra },
});
const say = (value: string, deltas = 1): Reply => answer([text(value, deltas)]);
const reject = (error: ErrorFactory): Reply => ({ reject: error });

const both: Api[] = ['stream', 'generate'];
const streamOnly: Api[] = ['stream'];
const instantGuard = { streamGuard: { sleep: async () => {} } };
/**
 * The guard's stall watch waits with the same injected `sleep`: an instant one would make every read a stall.
 * Stall scenarios shorten the real backoff instead.
 */
const shortBackoff = { streamGuard: { initialDelayMs: 0, maxDelayMs: 0 } };
const tools3 = { stopWhen: isStepCount(3) };

// ---- tools (fresh per run: they record what they saw into the run's log) ----

type ExecOptions = { toolCallId: string; messages?: unknown[]; abortSignal?: AbortSignal };

function weather(ctx: RunContext) {
  return tool({
    description: 'The weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }, options) => {
      ctx.log('weather', { city, toolCallId: options.toolCallId, messages: options.messages });
      return { city, forecast: 'sunny', tempC: 21 };
    },
  });
}

function failing(ctx: RunContext, error: () => unknown) {
  return tool({
    description: 'Looks a customer up',
    inputSchema: z.object({ id: z.string() }),
    execute: async ({ id }, options): Promise<{ id: string }> => {
      ctx.log('lookup', { id, toolCallId: options.toolCallId, messages: options.messages });
      throw error();
    },
  });
}

function generatorTool(ctx: RunContext) {
  return tool({
    description: 'Searches slowly, reporting progress',
    inputSchema: z.object({ query: z.string() }),
    execute: async function* ({ query }, options) {
      ctx.log('search', { query, toolCallId: options.toolCallId });
      yield { status: 'searching', query };
      yield { status: 'half-way', query };
      yield { status: 'done', query, hits: 3 };
    },
  });
}

/** A class-based tool: `execute` is a prototype method that reads `this`. */
function classTool(ctx: RunContext) {
  class Thermometer {
    readonly description = 'Reads the thermometer in a room';
    readonly inputSchema = z.object({ room: z.string() });
    readonly unit = 'celsius';
    async execute(input: { room: string }, options: ExecOptions) {
      const bound = this instanceof Thermometer;
      ctx.log('thermometer', { room: input.room, thisIsTheTool: bound, toolCallId: options.toolCallId });
      return { room: input.room, unit: bound ? this.unit : '<this lost>', degrees: 20 };
    }
  }
  return new Thermometer();
}

/** A tool with a non-enumerable own property its `execute` reads through `this`. */
function hiddenPropertyTool(ctx: RunContext) {
  const t = tool({
    description: 'Looks an order up',
    inputSchema: z.object({ orderId: z.string() }),
    execute(this: unknown, { orderId }: { orderId: string }) {
      const region = (this as { region?: string } | undefined)?.region;
      ctx.log('order', { orderId, region: region ?? '<region lost>' });
      return Promise.resolve({ orderId, status: 'shipped', region: region ?? '<region lost>' });
    },
  });
  Object.defineProperty(t, 'region', { value: 'eu-west-1', enumerable: false });
  return t;
}

function approvalTool(ctx: RunContext, needsApproval: boolean | ((input: { amount: number }) => boolean)) {
  return tool({
    description: 'Sends money',
    inputSchema: z.object({ amount: z.number() }),
    needsApproval,
    execute: async ({ amount }) => {
      ctx.log('pay', { amount });
      return { paid: amount };
    },
  });
}

function clientSideTool() {
  return tool({ description: 'Asks the user to confirm', inputSchema: z.object({ question: z.string() }) });
}

function slowTool(ctx: RunContext, ms: number) {
  return tool({
    description: 'A slow report',
    inputSchema: z.object({ topic: z.string() }),
    execute: async ({ topic }, { abortSignal }) => {
      ctx.log('report:start', { topic });
      await new Promise<void>((resolve, rejectWait) => {
        const timer = setTimeout(resolve, ms);
        abortSignal?.addEventListener('abort', () => {
          clearTimeout(timer);
          rejectWait(abortSignal.reason);
        });
      });
      ctx.log('report:end', { topic });
      return { topic, pages: 2 };
    },
  });
}

function abortingTool(ctx: RunContext) {
  return tool({
    description: 'Takes long; the caller gives up while it runs',
    inputSchema: z.object({ topic: z.string() }),
    execute: async ({ topic }, { abortSignal }) => {
      ctx.log('long:start', { topic });
      ctx.abortController.abort();
      await new Promise((_, rejectWait) => {
        if (abortSignal?.aborted) rejectWait(abortSignal.reason);
        abortSignal?.addEventListener('abort', () => rejectWait(abortSignal.reason));
      });
      return { topic };
    },
  });
}

// ---- A. content × callback style ----

const contentCases: { id: string; replies: Reply[]; apis?: Api[]; options?: Scenario['options'] }[] = [
  { id: 'text/one-delta', replies: [say('Hello, world.')] },
  { id: 'text/many-deltas', replies: [say('The quick brown fox jumps over the lazy dog.', 9)] },
  { id: 'text/empty-answer', replies: [answer([])] },
  { id: 'text/two-blocks', replies: [answer([text('First part. ', 2), text('Second part.', 2)])] },
  {
    id: 'reasoning',
    replies: [answer([reasoning('Let me think about this.', 3), text('The answer is 42.', 2)])],
  },
  {
    id: 'sources',
    replies: [
      answer([
        text('Paris is the capital of France.', 2),
        { type: 'source', id: 'src-1', url: 'https://example.test/paris', title: 'Paris' },
        { type: 'source', id: 'src-2', url: 'https://example.test/france' },
      ]),
    ],
  },
  {
    id: 'files',
    replies: [
      answer([{ type: 'file', mediaType: 'image/png', base64: 'iVBORw0KGgo=' }, text('Here is the chart.')]),
    ],
  },
  {
    id: 'model-warnings',
    replies: [
      answer([text('Warned.')], {
        warnings: [
          { type: 'unsupported', feature: 'temperature', details: 'ignored by this model' },
          { type: 'other', message: 'scripted warning' },
        ],
      }),
    ],
    options: () => ({ temperature: 0.2 }),
  },
  { id: 'response-metadata', replies: [answer([text('With metadata.')], { metadata: true })] },
  {
    id: 'finish-length',
    replies: [answer([text('Cut off because of len')], { finish: 'length', rawFinish: 'length' })],
  },
  {
    id: 'provider-metadata',
    replies: [
      answer([{ type: 'text', text: 'Cached.', providerMetadata: { mock: { segment: 1 } } }], {
        providerMetadata: { mock: { cachedTokens: 7 } },
      }),
    ],
  },
  {
    id: 'custom-part',
    replies: [answer([{ type: 'custom', kind: 'mock.note' }, text('After a custom part.')])],
  },
  {
    id: 'raw-chunks',
    apis: streamOnly,
    replies: [
      answer([
        { type: 'raw', rawValue: { frame: 1 } },
        text('Raw.'),
        { type: 'raw', rawValue: { frame: 2 } },
      ]),
    ],
    options: () => ({ include: { rawChunks: true } }),
  },
  {
    id: 'call-settings',
    replies: [say('Configured.')],
    options: () => ({
      instructions: 'Be brief.',
      temperature: 0.3,
      topP: 0.9,
      maxOutputTokens: 100,
      seed: 7,
      stopSequences: ['END'],
      headers: { 'x-trace-id': 'trace-1' },
      providerOptions: { mock: { flavour: 'test' } },
      runtimeContext: { userId: 'u-1' },
    }),
  },
  {
    id: 'messages-prompt',
    replies: [say('Continuing the conversation.')],
    options: () => ({
      prompt: undefined,
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello! How can I help?' },
        { role: 'user', content: [{ type: 'text', text: 'Tell me more.' }] },
      ],
    }),
  },
];

const styles: CallbackStyle[] = ['modern', 'deprecated'];

const contentScenarios: Scenario[] = contentCases.flatMap((c) =>
  styles.map(
    (style): Scenario => ({
      id: `content/${c.id}/${style}`,
      apis: c.apis ?? both,
      tags: [],
      script: { replies: c.replies },
      options: c.options,
      callbacks: style,
    }),
  ),
);

// ---- B. tools, loops, tool choice ----

interface ToolCase {
  id: string;
  replies: Reply[];
  options: (ctx: RunContext) => Record<string, unknown>;
  tags?: Tag[];
  styles?: CallbackStyle[];
  apis?: Api[];
}

const toolCases: ToolCase[] = [
  {
    id: 'plain-execute',
    replies: [answer([call('weather', { city: 'Paris' })]), say('It is sunny in Paris.', 3)],
    options: (ctx) => ({ tools: { weather: weather(ctx) }, ...tools3 }),
    styles,
  },
  {
    id: 'parallel-calls',
    replies: [
      answer([
        text('Checking both.'),
        call('weather', { city: 'Paris' }),
        call('weather', { city: 'Rome' }, 'call-2'),
      ]),
      say('Sunny in both.'),
    ],
    options: (ctx) => ({ tools: { weather: weather(ctx) }, ...tools3 }),
  },
  {
    id: 'streamed-input-with-hooks',
    replies: [answer([call('weather', { city: 'Oslo' }, 'call-1', true)]), say('Cold in Oslo.')],
    options: (ctx) => ({
      tools: {
        weather: {
          ...weather(ctx),
          onInputStart: (o: ExecOptions) => ctx.log('onInputStart', { toolCallId: o.toolCallId }),
          onInputDelta: (o: ExecOptions & { inputTextDelta: string }) =>
            ctx.log('onInputDelta', { delta: o.inputTextDelta }),
          onInputAvailable: (o: ExecOptions & { input: unknown }) =>
            ctx.log('onInputAvailable', { input: o.input }),
        },
      },
      ...tools3,
    }),
  },
  {
    id: 'generator-preliminary-results',
    replies: [answer([call('search', { query: 'graceful degradation' })]), say('Found 3 hits.')],
    options: (ctx) => ({ tools: { search: generatorTool(ctx) }, ...tools3 }),
    styles,
  },
  {
    id: 'class-tool-this',
    replies: [answer([call('thermometer', { room: 'kitchen' })]), say('It is 20 degrees.')],
    options: (ctx) => ({ tools: { thermometer: classTool(ctx) }, ...tools3 }),
    styles,
  },
  {
    id: 'non-enumerable-property',
    replies: [answer([call('order', { orderId: 'A-1' })]), say('Order A-1 has shipped.')],
    options: (ctx) => ({ tools: { order: hiddenPropertyTool(ctx) }, ...tools3 }),
  },
  {
    id: 'experimental-tool-callers',
    replies: [answer([call('lookup', { city: 'Paris' })]), say('Looked up.')],
    options: (ctx) => {
      const runner = experimental_toolCaller(
        tool({
          description: 'Runs code that may call other tools',
          inputSchema: z.object({ code: z.string() }),
          execute: async ({ code }) => ({ ran: code }),
        }),
        {
          type: 'provider',
          prepareProviderOptions: (providerOptions) => ({
            ...providerOptions,
            mock: { ...(providerOptions?.mock as object | undefined), allowedCallers: ['codeRunner'] },
          }),
        },
      );
      return {
        tools: { codeRunner: runner, lookup: weather(ctx) },
        experimental_toolCallers: { lookup: ['AI_SDK_DIRECT_TOOL_CALL', 'codeRunner'] },
        ...tools3,
      };
    },
  },
  {
    id: 'needs-approval',
    replies: [answer([call('pay', { amount: 50 })]), say('Paid.')],
    options: (ctx) => ({ tools: { pay: approvalTool(ctx, true) }, ...tools3 }),
    styles,
  },
  {
    id: 'needs-approval-function',
    replies: [
      answer([call('pay', { amount: 5 }), call('pay', { amount: 500 }, 'call-2')]),
      say('Paid the small one.'),
    ],
    options: (ctx) => ({ tools: { pay: approvalTool(ctx, ({ amount }) => amount > 100) }, ...tools3 }),
  },
  {
    id: 'approval-granted-in-messages',
    replies: [say('The payment went through.')],
    options: (ctx) => ({
      prompt: undefined,
      messages: [
        { role: 'user', content: 'Pay 50.' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'call-9', toolName: 'pay', input: { amount: 50 } },
            { type: 'tool-approval-request', approvalId: 'appr-1', toolCallId: 'call-9' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'appr-1', approved: true }] },
      ],
      tools: { pay: approvalTool(ctx, true) },
      ...tools3,
    }),
  },
  {
    id: 'tool-without-execute',
    replies: [answer([call('confirm', { question: 'Proceed?' })]), say('unreachable')],
    options: () => ({ tools: { confirm: clientSideTool() }, ...tools3 }),
  },
  {
    id: 'tool-throws',
    tags: ['tool-error-text'],
    replies: [answer([call('lookup', { id: '42' })]), say('The lookup failed.')],
    options: (ctx) => ({
      tools: {
        lookup: failing(ctx, () =>
          Object.assign(new Error('Customer 42 not found', { cause: new Error('404 from CRM') }), {
            status: 404,
          }),
        ),
      },
      ...tools3,
    }),
    styles,
  },
  {
    id: 'tool-throws-string',
    tags: ['tool-error-text'],
    replies: [answer([call('lookup', { id: '42' })]), say('The lookup failed.')],
    options: (ctx) => ({ tools: { lookup: failing(ctx, () => 'plain string failure') }, ...tools3 }),
  },
  {
    id: 'tool-throws-network-error',
    tags: ['tool-error-text'],
    replies: [answer([call('lookup', { id: '42' })]), say('The CRM is down.')],
    options: (ctx) => ({
      tools: {
        lookup: failing(ctx, () =>
          Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } }),
        ),
      },
      ...tools3,
    }),
  },
  {
    id: 'invalid-tool-input',
    tags: ['tool-error-text'],
    replies: [answer([call('weather', { town: 7 })]), say('Sorry, bad input.')],
    options: (ctx) => ({ tools: { weather: weather(ctx) }, ...tools3 }),
    styles,
  },
  {
    id: 'unparseable-tool-input',
    tags: ['tool-error-text'],
    replies: [answer([call('weather', '{"city": "Par')]), say('Sorry, broken JSON.')],
    options: (ctx) => ({ tools: { weather: weather(ctx) }, ...tools3 }),
  },
  {
    id: 'unknown-tool-name',
    tags: ['tool-error-text'],
    replies: [answer([call('wether', { city: 'Paris' })]), say('Sorry, wrong tool.')],
    options: (ctx) => ({ tools: { weather: weather(ctx) }, ...tools3 }),
    styles,
  },
  {
    id: 'callers-own-repair',
    replies: [answer([call('wether', { city: 'Paris' })]), say('Repaired.')],
    options: (ctx) => ({
      tools: { weather: weather(ctx) },
      experimental_repairToolCall: async ({ toolCall }: { toolCall: { toolName: string } }) =>
        toolCall.toolName === 'wether' ? { ...toolCall, toolName: 'weather' } : null,
      ...tools3,
    }),
  },
  {
    id: 'to-model-output',
    replies: [answer([call('weather', { city: 'Paris' })]), say('Rendered.')],
    options: (ctx) => ({
      tools: {
        weather: tool({
          description: 'The weather in a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => {
            ctx.log('weather', { city });
            return { city, forecast: 'sunny', tempC: 21 };
          },
          toModelOutput: ({ output }) => ({ type: 'text', value: `forecast: ${JSON.stringify(output)}` }),
        }),
      },
      ...tools3,
    }),
  },
  {
    id: 'dynamic-tool',
    replies: [answer([call('calc', { a: 1, b: 2 })]), say('3.')],
    options: (ctx) => ({
      tools: {
        calc: dynamicTool({
          description: 'Adds',
          inputSchema: jsonSchema({
            type: 'object',
            properties: { a: { type: 'number' }, b: { type: 'number' } },
          }),
          execute: async (input) => {
            ctx.log('calc', input);
            const { a, b } = input as { a: number; b: number };
            return { sum: a + b };
          },
        }),
      },
      ...tools3,
    }),
  },
  {
    id: 'tool-choice-required',
    replies: [answer([call('weather', { city: 'Paris' })]), say('Done.')],
    options: (ctx) => ({ tools: { weather: weather(ctx) }, toolChoice: 'required', ...tools3 }),
  },
  {
    id: 'tool-choice-specific',
    replies: [answer([call('weather', { city: 'Paris' })]), say('Done.')],
    options: (ctx) => ({
      tools: { weather: weather(ctx), confirm: clientSideTool() },
      toolChoice: { type: 'tool', toolName: 'weather' },
      ...tools3,
    }),
  },
  {
    id: 'tool-choice-none',
    replies: [say('No tools today.')],
    options: (ctx) => ({ tools: { weather: weather(ctx) }, toolChoice: 'none', ...tools3 }),
  },
  {
    id: 'active-tools',
    replies: [answer([call('weather', { city: 'Paris' })]), say('Done.')],
    options: (ctx) => ({
      tools: { weather: weather(ctx), confirm: clientSideTool(), search: generatorTool(ctx) },
      activeTools: ['weather'],
      ...tools3,
    }),
  },
  {
    id: 'prepare-step',
    replies: [answer([call('weather', { city: 'Paris' })]), say('Prepared.')],
    options: (ctx) => ({
      tools: { weather: weather(ctx), confirm: clientSideTool() },
      prepareStep: (arg: { stepNumber: number; model: object }) => {
        ctx.log('prepareStep', {
          ...arg,
          modelIsTheCallersModel: ctx.known.get(arg.model) === "caller's model",
        });
        return arg.stepNumber === 0
          ? { activeTools: ['weather'], toolChoice: 'required' }
          : { activeTools: [], instructions: 'Now answer.' };
      },
      ...tools3,
    }),
  },
  {
    id: 'stop-when-has-tool-call',
    replies: [
      answer([call('weather', { city: 'Paris' })]),
      answer([call('confirm', { question: 'Book it?' }, 'call-2')]),
      say('unreachable'),
    ],
    options: (ctx) => ({
      tools: { weather: weather(ctx), confirm: clientSideTool() },
      stopWhen: [isStepCount(5), hasToolCall('confirm')],
    }),
  },
  {
    id: 'three-step-loop',
    replies: [
      answer([call('weather', { city: 'Paris' })]),
      answer([text('And Rome? '), call('weather', { city: 'Rome' }, 'call-2')]),
      say('Both sunny.', 2),
    ],
    options: (ctx) => ({ tools: { weather: weather(ctx) }, stopWhen: isStepCount(5) }),
    styles,
  },
  {
    id: 'default-stop-after-tool-step',
    replies: [answer([call('weather', { city: 'Paris' })]), say('unreachable')],
    options: (ctx) => ({ tools: { weather: weather(ctx) } }),
  },
  {
    id: 'tool-call-concurrency-1',
    replies: [
      answer([call('weather', { city: 'Paris' }), call('weather', { city: 'Rome' }, 'call-2')]),
      say('Sequential.'),
    ],
    options: (ctx) => ({ tools: { weather: weather(ctx) }, toolCallConcurrency: 1, ...tools3 }),
  },
  {
    id: 'tool-timeout-toolMs',
    replies: [answer([call('report', { topic: 'q3' })]), say('The report timed out.')],
    options: (ctx) => ({ tools: { report: slowTool(ctx, 400) }, timeout: { toolMs: 30 }, ...tools3 }),
  },
];

const toolScenarios: Scenario[] = toolCases.flatMap((c) =>
  (c.styles ?? ['modern']).map(
    (style): Scenario => ({
      id: `tools/${c.id}${c.styles ? `/${style}` : ''}`,
      apis: c.apis ?? both,
      tags: c.tags ?? [],
      script: { replies: c.replies },
      options: c.options,
      callbacks: style,
    }),
  ),
);

// ---- C. structured output ----

const outputCases: { id: string; output: () => unknown; reply: Reply }[] = [
  {
    id: 'object',
    output: () => Output.object({ schema: z.object({ name: z.string(), age: z.number() }) }),
    reply: say('{"name":"Ada","age":36}', 4),
  },
  {
    id: 'object-invalid',
    output: () => Output.object({ schema: z.object({ name: z.string(), age: z.number() }) }),
    reply: say('{"name":"Ada","age":"old"}', 2),
  },
  {
    id: 'array',
    output: () => Output.array({ element: z.object({ city: z.string() }) }),
    reply: say('{"elements":[{"city":"Paris"},{"city":"Rome"}]}', 5),
  },
  { id: 'choice', output: () => Output.choice({ options: ['yes', 'no'] }), reply: say('{"result":"yes"}') },
  { id: 'json', output: () => Output.json(), reply: say('{"free":["form",1]}', 3) },
  { id: 'text', output: () => Output.text(), reply: say('Just text.') },
];

const outputScenarios: Scenario[] = outputCases.map((c) => ({
  id: `output/${c.id}`,
  apis: both,
  tags: [],
  script: { replies: [c.reply] },
  options: () => ({ output: c.output() }),
}));

// ---- D. errors before any output: status × outcome × maxRetries ----

// Retried by both: the SDK's `isRetryable` (429, 5xx) and the guard's classifier agree on these.
const retryable = new Set([429, 500, 502, 503, 504]);

const beforeOutputScenarios: Scenario[] = [];
for (const status of [400, 401, 403, 404, 429, 500, 502, 503, 504]) {
  const outcomes = retryable.has(status) ? (['always', 'once'] as const) : (['always'] as const);
  for (const outcome of outcomes) {
    for (const maxRetries of [undefined, 0, 1] as const) {
      if (!retryable.has(status) && maxRetries === 1) continue;
      const replies =
        outcome === 'always'
          ? [reject(errors.api(status)), reject(errors.api(status)), reject(errors.api(status))]
          : [reject(errors.api(status)), say('Second time lucky.', 2)];
      const retries = maxRetries ?? 2;
      // Both end failed when every attempt fails, or when nothing may retry the one failure.
      const fails = outcome === 'always' || retries === 0 || !retryable.has(status);
      beforeOutputScenarios.push({
        id: `before-output/http-${status}/${outcome === 'always' ? 'every-attempt' : 'first-attempt'}/maxRetries-${maxRetries ?? 'default'}`,
        apis: both,
        tags: [
          ...(retryable.has(status) && retries > 0 ? (['retry-before-output'] as const) : []),
          ...(fails ? (['unrecovered-failure'] as const) : []),
        ],
        script: { replies },
        options: () => (maxRetries === undefined ? {} : { maxRetries }),
        graceful: instantGuard,
      });
    }
  }
}

beforeOutputScenarios.push(
  {
    id: 'before-output/http-500-without-retry-after/first-attempt/maxRetries-1',
    apis: both,
    tags: ['retry-before-output'],
    script: { replies: [reject(errors.api(500, { retryAfterMs: null })), say('After the backoff.')] },
    options: () => ({ maxRetries: 1 }),
    graceful: instantGuard,
    slow: true,
  },
  {
    id: 'before-output/http-400/deprecated-callbacks',
    apis: both,
    tags: ['unrecovered-failure'],
    script: { replies: [reject(errors.api(400))] },
    callbacks: 'deprecated',
  },
  {
    id: 'before-output/http-503/every-attempt/deprecated-callbacks',
    apis: both,
    tags: ['retry-before-output', 'unrecovered-failure'],
    script: { replies: [reject(errors.api(503)), reject(errors.api(503)), reject(errors.api(503))] },
    callbacks: 'deprecated',
    graceful: instantGuard,
  },
  {
    id: 'before-output/later-step-http-400',
    apis: both,
    // ai's streamText resolves text '' after the failed second step (a failed turn reported as a success).
    tags: ['unrecovered-failure'],
    script: { replies: [answer([call('weather', { city: 'Paris' })]), reject(errors.api(400))] },
    options: (ctx) => ({ tools: { weather: weather(ctx) }, ...tools3 }),
  },
  {
    id: 'before-output/later-step-http-503-then-ok',
    apis: both,
    tags: ['retry-before-output'],
    script: {
      replies: [answer([call('weather', { city: 'Paris' })]), reject(errors.api(503)), say('Sunny.')],
    },
    options: (ctx) => ({ tools: { weather: weather(ctx) }, ...tools3 }),
    graceful: instantGuard,
  },
);

// Stream-only ways to fail before output: an error part first, a stream that errors before any part.
const overloaded = errors.inBand({
  message: 'The server is overloaded',
  type: 'overloaded_error',
  code: 'overloaded',
  isRetryable: true,
});
const overflow = errors.inBand({
  message: 'This model maximum context length is 8192 tokens.',
  type: 'invalid_request_error',
  code: 'context_length_exceeded',
  statusCode: 400,
  isRetryable: false,
});
const revokedKey = errors.inBand({
  message: 'Incorrect API key provided.',
  type: 'invalid_request_error',
  code: 'invalid_api_key',
  statusCode: 401,
  isRetryable: false,
});

for (const maxRetries of [undefined, 0] as const) {
  const suffix = `maxRetries-${maxRetries ?? 'default'}`;
  const retries = maxRetries === undefined ? {} : { maxRetries };
  beforeOutputScenarios.push(
    {
      id: `before-output/error-part-first/overloaded/${suffix}`,
      apis: streamOnly,
      // The SDK never retries an error part (without `streamRetries`); the guard does.
      tags: maxRetries === 0 ? ['unrecovered-failure'] : ['guard-recovers'],
      recoveredText: maxRetries === 0 ? undefined : 'Back again.',
      script: { replies: [{ partial: [], ending: 'error-part', error: overloaded }, say('Back again.')] },
      options: () => retries,
      graceful: instantGuard,
    },
    {
      id: `before-output/error-part-first/context-overflow/${suffix}`,
      apis: streamOnly,
      tags: ['unrecovered-failure'],
      script: { replies: [{ partial: [], ending: 'error-part', error: overflow }, say('unreachable')] },
      options: () => retries,
    },
    // The SDK passes a clean end with no content on as an empty answer; the guard retries it.
    ...(['interrupted', 'other', 'no-finish'] as const).map(
      (ending): Scenario => ({
        id: `before-output/finish-${ending}-first/${suffix}`,
        apis: streamOnly,
        tags: maxRetries === 0 ? ['unrecovered-failure', 'interrupted-before-output'] : ['guard-recovers'],
        recoveredText: maxRetries === 0 ? undefined : 'Back again.',
        script: { replies: [{ partial: [], ending }, say('Back again.')] },
        options: () => retries,
        graceful: instantGuard,
      }),
    ),
    {
      // An error no rule recognises (a plain Error from a provider package or a middleware) is reported at once, as
      // the SDK reports it: no retry; streamText's answer fields reject with the error itself.
      id: `before-output/unknown-error-first/${suffix}`,
      apis: both,
      tags: ['unrecovered-failure'],
      script: { replies: [{ reject: () => new Error('Something nobody classifies') }, say('unreachable')] },
      options: () => retries,
      graceful: instantGuard,
    },
    {
      id: `before-output/stream-throws-first/reset/${suffix}`,
      apis: streamOnly,
      // The SDK does not retry a stream that errors (only a rejected `doStream`); the guard does.
      tags: maxRetries === 0 ? ['stream-throws', 'unrecovered-failure'] : ['guard-recovers'],
      recoveredText: maxRetries === 0 ? undefined : 'Reconnected.',
      script: { replies: [{ partial: [], ending: 'throw', error: errors.reset() }, say('Reconnected.')] },
      options: () => retries,
      graceful: instantGuard,
    },
  );
}
// An answer with no content that ends with 'content-filter' (or 'other' with the provider's reason): the SDK passes
// it on as '', the guard retries it once, then fails the call with an EmptyAnswerError.
for (const maxRetries of [undefined, 0] as const) {
  beforeOutputScenarios.push({
    id: `before-output/empty-content-filter/maxRetries-${maxRetries ?? 'default'}`,
    apis: both,
    tags: maxRetries === 0 ? ['unrecovered-failure', 'interrupted-before-output'] : ['guard-recovers'],
    recoveredText: maxRetries === 0 ? undefined : 'Back again.',
    script: { replies: [answer([], { finish: 'content-filter', rawFinish: 'SAFETY' }), say('Back again.')] },
    options: () => (maxRetries === undefined ? {} : { maxRetries }),
    graceful: instantGuard,
  });
}
// A history whose last turn ended between a tool call and its result: ai refuses it before sending
// (MissingToolResultsError); the drop-ins send it repaired and answer.
beforeOutputScenarios.push({
  id: 'before-output/dangling-tool-call-in-history',
  apis: both,
  tags: ['guard-recovers'],
  recoveredText: 'Where were we?',
  script: { replies: [say('Where were we?')] },
  options: () => ({
    prompt: undefined,
    messages: [
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: {} }],
      },
      { role: 'user', content: 'Hello?' },
    ],
  }),
});
beforeOutputScenarios.push({
  id: 'before-output/stream-throws-first/http-400',
  apis: streamOnly,
  tags: ['stream-throws', 'unrecovered-failure'],
  script: { replies: [{ partial: [], ending: 'throw', error: errors.api(400) }] },
});

// ---- E. failures after output (stream only) ----

const partial = [text('The capital of France ', 2)];
const fullAnswer = say('The capital of France is Paris.');

const afterOutputScenarios: Scenario[] = (
  [
    {
      id: 'after-output/error-part/overloaded/recovery-continues',
      tags: ['guard-recovers'],
      recoveredText: 'The capital of France is Paris.',
      script: { replies: [{ partial, ending: 'error-part', error: overloaded }], recovery: [fullAnswer] },
    },
    {
      id: 'after-output/error-part/overloaded/recovery-differs',
      tags: ['guard-recovers'],
      recoveredText: 'Paris is the capital of France.',
      script: {
        replies: [{ partial, ending: 'error-part', error: overloaded }],
        recovery: [say('Paris is the capital of France.')],
      },
    },
    {
      id: 'after-output/error-part/overloaded/deprecated-callbacks',
      tags: ['guard-recovers'],
      recoveredText: 'The capital of France is Paris.',
      script: { replies: [{ partial, ending: 'error-part', error: overloaded }], recovery: [fullAnswer] },
      callbacks: 'deprecated',
    },
    {
      id: 'after-output/error-part/context-overflow',
      tags: ['unrecovered-failure'],
      script: { replies: [{ partial, ending: 'error-part', error: overflow }], recovery: [fullAnswer] },
    },
    {
      id: 'after-output/error-part/context-overflow/deprecated-callbacks',
      tags: ['unrecovered-failure'],
      script: { replies: [{ partial, ending: 'error-part', error: overflow }], recovery: [fullAnswer] },
      callbacks: 'deprecated',
    },
    {
      id: 'after-output/error-part/revoked-key',
      tags: ['unrecovered-failure'],
      script: { replies: [{ partial, ending: 'error-part', error: revokedKey }], recovery: [fullAnswer] },
    },
    {
      id: 'after-output/stream-throws/reset',
      tags: ['guard-recovers'],
      recoveredText: 'The capital of France is Paris.',
      script: { replies: [{ partial, ending: 'throw', error: errors.reset() }], recovery: [fullAnswer] },
    },
    {
      id: 'after-output/stream-throws/http-400',
      tags: ['stream-throws', 'unrecovered-failure'],
      script: { replies: [{ partial, ending: 'throw', error: errors.api(400) }], recovery: [fullAnswer] },
    },
    ...(['interrupted', 'other', 'no-finish'] as const).map(
      (ending): Omit<Scenario, 'apis'> => ({
        id: `after-output/finish-${ending}`,
        tags: ['guard-recovers'],
        recoveredText: 'The capital of France is Paris.',
        script: { replies: [{ partial, ending }], recovery: [fullAnswer] },
      }),
    ),
    {
      id: 'after-output/recovery-request-fails',
      tags: ['unrecovered-failure', 'recovery-attempted'],
      script: {
        replies: [{ partial, ending: 'error-part', error: overloaded }],
        recovery: [reject(errors.api(500))],
      },
    },
    {
      id: 'after-output/degrade-off',
      tags: ['unrecovered-failure'],
      script: { replies: [{ partial, ending: 'error-part', error: overloaded }], recovery: [fullAnswer] },
      graceful: { streamGuard: { degrade: false } },
    },
    {
      id: 'after-output/mid-reasoning',
      tags: ['guard-recovers'],
      recoveredText: 'Paris.',
      script: {
        replies: [{ partial: [reasoning('Let me think', 2)], ending: 'throw', error: errors.reset() }],
        recovery: [answer([reasoning('Let me think.'), text('Paris.')])],
      },
    },
    {
      id: 'after-output/after-tool-call',
      tags: ['guard-recovers'],
      recoveredText: 'Sunny in Paris.',
      script: {
        replies: [
          {
            partial: [text('Let me check. '), call('weather', { city: 'Paris' })],
            ending: 'throw',
            error: errors.reset(),
          },
          say('Sunny in Paris.'),
        ],
        recovery: [answer([text('Let me check. '), call('weather', { city: 'Paris' }, 'call-r1')])],
      },
      options: (ctx) => ({ tools: { weather: weather(ctx) }, ...tools3 }),
    },
    {
      id: 'after-output/second-step-error-part/context-overflow',
      tags: ['unrecovered-failure'],
      script: {
        replies: [
          answer([call('weather', { city: 'Paris' })]),
          { partial, ending: 'error-part', error: overflow },
        ],
        recovery: [fullAnswer],
      },
      options: (ctx) => ({ tools: { weather: weather(ctx) }, ...tools3 }),
    },
  ] as Omit<Scenario, 'apis'>[]
).map((s) => ({ apis: streamOnly, ...s }));

// ---- F. aborts by the caller ----

const abortScenarios: Scenario[] = (
  [
    {
      id: 'abort/before-the-call',
      apis: both,
      tags: [],
      script: { replies: [say('unreachable')] },
      abortBefore: true,
    },
    {
      id: 'abort/while-streaming-text',
      apis: streamOnly,
      tags: [],
      script: { replies: [{ partial, ending: 'stall' }], recovery: [fullAnswer] },
      abortAfter: { type: 'text-delta', count: 2 },
    },
    {
      id: 'abort/while-streaming-text/deprecated-callbacks',
      apis: streamOnly,
      tags: [],
      script: { replies: [{ partial, ending: 'stall' }], recovery: [fullAnswer] },
      abortAfter: { type: 'text-delta', count: 2 },
      callbacks: 'deprecated',
    },

    {
      id: 'abort/before-first-chunk',
      apis: both,
      tags: [],
      script: { replies: [{ partial: [], ending: 'abort' }, say('unreachable')] },
    },
    {
      id: 'abort/during-tool-execution',
      apis: both,
      tags: [],
      script: { replies: [answer([call('long', { topic: 'q3' })]), say('unreachable')] },
      options: (ctx) => ({ tools: { long: abortingTool(ctx) }, ...tools3 }),
    },
  ] as Scenario[]
).map((s) => ({ ...s, options: withSignal(s.options) }));

function withSignal(options: Scenario['options']): Scenario['options'] {
  return (ctx) => ({ ...(options?.(ctx) ?? {}), abortSignal: ctx.abortController.signal });
}

// ---- G. timeouts ----

const stall = (pieces: Piece[] = partial): Reply => ({ partial: pieces, ending: 'stall' });

const timeoutScenarios: Scenario[] = [
  {
    id: 'timeout/totalMs/stall-after-output',
    apis: both,
    tags: [],
    script: { replies: [stall()], recovery: [fullAnswer] },
    options: () => ({ timeout: { totalMs: 150 } }),
  },
  {
    id: 'timeout/number/stall-after-output',
    apis: both,
    tags: [],
    script: { replies: [stall()], recovery: [fullAnswer] },
    options: () => ({ timeout: 150 }),
  },
  {
    id: 'timeout/stepMs/stall-after-output',
    apis: both,
    tags: [],
    script: { replies: [stall()], recovery: [fullAnswer] },
    options: () => ({ timeout: { stepMs: 150 } }),
  },
  {
    id: 'timeout/chunkMs/stall-after-output',
    apis: streamOnly,
    tags: ['guard-recovers'],
    recoveredText: 'The capital of France is Paris.',
    script: { replies: [stall()], recovery: [fullAnswer] },
    options: () => ({ timeout: { chunkMs: 150 } }),
  },
  {
    id: 'timeout/chunkMs/stall-before-output',
    apis: streamOnly,
    tags: ['guard-recovers'],
    recoveredText: 'The capital of France is Paris.',
    script: { replies: [stall([]), fullAnswer], recovery: [fullAnswer] },
    options: () => ({ timeout: { chunkMs: 150, totalMs: 500 } }),
    graceful: shortBackoff,
  },
  {
    id: 'timeout/chunkMs/no-stall',
    apis: both,
    tags: [],
    script: { replies: [say('In time.', 3)] },
    options: () => ({ timeout: { chunkMs: 5_000 } }),
  },
  {
    id: 'timeout/firstChunkMs/no-stall',
    apis: both,
    tags: [],
    script: { replies: [say('In time.', 3)] },
    options: () => ({ timeout: { firstChunkMs: 5_000 } }),
  },
  {
    id: 'timeout/all-fields/no-stall',
    apis: both,
    tags: [],
    script: { replies: [say('In time.', 3)] },
    options: () => ({ timeout: { totalMs: 5_000, stepMs: 5_000, firstChunkMs: 5_000, chunkMs: 5_000 } }),
  },
];

// ---- H. maxRetries on a clean run (onStart reports it) ----

const maxRetriesScenarios: Scenario[] = [0, 1, 5].map((maxRetries) => ({
  id: `max-retries/${maxRetries}/clean`,
  apis: both,
  tags: [],
  script: { replies: [say('Clean.')] },
  options: () => ({ maxRetries }),
}));

// ---- I. callbacks that throw, and other options ----

const miscScenarios: Scenario[] = [
  {
    id: 'callbacks/onStepEnd-throws',
    apis: both,
    tags: [],
    script: { replies: [say('Still fine.')] },
    throwingCallback: 'onStepEnd',
  },
  {
    id: 'callbacks/onStepFinish-throws',
    apis: both,
    tags: [],
    script: { replies: [say('Still fine.')] },
    callbacks: 'deprecated',
    throwingCallback: 'onStepFinish',
  },
  {
    id: 'callbacks/onChunk-throws',
    apis: streamOnly,
    tags: [],
    script: { replies: [say('Still fine.', 2)] },
    throwingCallback: 'onChunk',
  },
  {
    id: 'options/experimental-transform-smooth-stream',
    apis: streamOnly,
    tags: [],
    script: { replies: [say('One two three four five six.', 2)] },
    options: () => ({ experimental_transform: smoothStream({ delayInMs: null }) }),
  },
  {
    id: 'options/experimental-include-request-body',
    apis: both,
    tags: [],
    script: { replies: [say('Included.')] },
    options: () => ({ include: { requestBody: true, requestMessages: true } }),
  },
];

/** Every scenario, in a stable order. */
export const scenarios: Scenario[] = [
  ...contentScenarios,
  ...toolScenarios,
  ...outputScenarios,
  ...beforeOutputScenarios,
  ...afterOutputScenarios,
  ...abortScenarios,
  ...timeoutScenarios,
  ...maxRetriesScenarios,
  ...miscScenarios,
];

/** Scenario × API pairs, as the tests run them. */
export const cases: { scenario: Scenario; api: Api }[] = scenarios.flatMap((scenario) =>
  scenario.apis.map((api) => ({ scenario, api })),
);
