/** A readable, coloured transcript of an agent run. Colour only on a TTY and never with NO_COLOR set. */
import { performance } from 'node:perf_hooks';

type Paint = (text: string) => string;

const code =
  (open: number, close: number): Paint =>
  (text) =>
    `\u001b[${open}m${text}\u001b[${close}m`;

export interface TranscriptOptions {
  /** Where to write (default `process.stdout`). */
  out?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Force colour on or off (default: on when `out` is a TTY and `NO_COLOR` is unset). */
  color?: boolean;
}

export type Transcript = ReturnType<typeof createTranscript>;

/** Creates a transcript printer; timings are relative to the last `section()` call. */
export function createTranscript(options: TranscriptOptions = {}) {
  const out = options.out ?? process.stdout;
  const color = options.color ?? (Boolean(out.isTTY) && !process.env.NO_COLOR);
  const paint = (open: number, close: number): Paint => (color ? code(open, close) : (text) => text);
  const bold = paint(1, 22);
  const dim = paint(2, 22);
  const red = paint(31, 39);
  const green = paint(32, 39);
  const yellow = paint(33, 39);
  const blue = paint(34, 39);
  const magenta = paint(35, 39);
  const cyan = paint(36, 39);
  let sectionStart = performance.now();
  let midLine = false;
  const clock = () => dim(`[${String(Math.round(performance.now() - sectionStart)).padStart(5)} ms]`);
  const line = (text: string) => {
    if (midLine) out.write('\n');
    midLine = false;
    out.write(`${clock()} ${text}\n`);
  };
  const short = (value: unknown, max = 120) => {
    const text = (typeof value === 'string' ? value : JSON.stringify(value)).replace(/\s*\n\s*/g, ' ⏎ ');
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  };

  return {
    /** A section header; restarts the timer. */
    section(title: string, subtitle?: string) {
      if (midLine) out.write('\n');
      midLine = false;
      out.write(`\n${bold(magenta(`━━ ${title} `))}${subtitle ? dim(subtitle) : ''}\n`);
      sectionStart = performance.now();
    },
    /** What the user says. */
    user: (text: string) => line(`${bold(blue('user'))}      ${text}`),
    /** The start of a model step. */
    step: (n: number) => line(dim(`── step ${n} ──`)),
    /** A piece of streamed assistant text (printed inline as it arrives). */
    assistantDelta(text: string) {
      if (!midLine) out.write(`${clock()} ${bold(green('assistant'))} `);
      midLine = true;
      out.write(text);
    },
    /** A complete assistant answer. */
    assistant: (text: string) => line(`${bold(green('assistant'))} ${text}`),
    toolCall: (name: string, input: unknown) => line(`${cyan('→ tool')}    ${bold(name)}(${short(input)})`),
    toolResult: (name: string, output: unknown) => line(`${green('← result')}  ${name}: ${short(output)}`),
    toolError: (name: string, error: unknown) =>
      line(`${red('← error')}   ${name}: ${red(short(String(error)))}`),
    /** A failure the caller sees (an error part or a thrown error). */
    error: (label: string, error: unknown) => {
      const e = error as { name?: string; message?: string; statusCode?: number };
      const status = e?.statusCode ? ` (HTTP ${e.statusCode})` : '';
      line(
        `${bold(red(`✖ ${label}`))} ${red(`${e?.name ?? 'Error'}${status}: ${short(e?.message ?? String(error))}`)}`,
      );
    },
    /** An observation about what just happened. */
    note: (text: string) => line(yellow(`ℹ ${text}`)),
    /** Plain text. */
    info: (text: string) => line(text),
    /** The final summary line. */
    summary(text: string, ok: boolean) {
      if (midLine) out.write('\n');
      midLine = false;
      out.write(`\n${bold(ok ? green('✔ ') : yellow('⚠ '))}${text}\n`);
    },
  };
}
