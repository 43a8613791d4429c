/** What replaces a secret in model-visible text. */
export const REDACTED = '[REDACTED]';

/**
 * Extra redaction on top of the built-in rules: patterns whose matches are replaced with `[REDACTED]`
 * (a pattern without the `g` flag still replaces every match), or a function that returns the cleaned text.
 * Keep patterns linear: they run over text of up to twice the output bound.
 */
export type RedactOption = RegExp | readonly RegExp[] | ((text: string) => string);

/**
 * Built-in patterns. Every one is linear: no nested quantifiers, and each starts with a literal or is
 * guarded by a lookbehind so a long run of matching characters is scanned once, not once per position.
 */
const BUILT_IN: readonly [RegExp, string][] = [
  // OpenAI / Anthropic (`sk-ant-…`) and similar `sk-` keys.
  [/(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{16,}/g, REDACTED],
  // Google API keys.
  [/(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{30,}/g, REDACTED],
  // GitHub tokens: classic, OAuth, user-to-server, server-to-server, refresh, fine-grained.
  [/(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, REDACTED],
  // AWS access key ids.
  [/(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![A-Z0-9])/g, REDACTED],
  // JWTs (header.payload.signature, base64url).
  [/(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // `Authorization: Bearer <token>`.
  [/(?<![A-Za-z])(Bearer)[ \t]+[^\s"',;]+/gi, `$1 ${REDACTED}`],
  // Passwords in URLs: scheme://user:password@host. Anchored on `://`, so each start is cheap.
  [/(:\/\/[^\s:/@]*:)[^\s@/]+@/g, `$1${REDACTED}@`],
  // Connection strings and key=value configs: Password=…; pwd=…
  [
    /(?<![A-Za-z])((?:password|passwd|pwd)["']?[ \t]*[=:][ \t]*)(?:"[^"]*"|'[^']*'|[^\s"';,&]+)/gi,
    `$1${REDACTED}`,
  ],
];

const SECRET_ENV_NAME = /KEY|TOKEN|SECRET|PASSWORD/i;
/** Shorter values (`1`, `true`, `dev`) would redact ordinary words. */
const MIN_ENV_SECRET_LENGTH = 8;

/** Values of environment variables that look secret, longest first, read at call time. */
function envSecrets(): string[] {
  const values: string[] = [];
  const env = typeof process === 'object' && process ? process.env : undefined;
  if (!env) return values;
  for (const name of Object.keys(env)) {
    if (!SECRET_ENV_NAME.test(name)) continue;
    const value = env[name];
    if (value !== undefined && value.length >= MIN_ENV_SECRET_LENGTH) values.push(value);
  }
  return values.sort((a, b) => b.length - a.length);
}

function applyPattern(text: string, pattern: RegExp): string {
  const global = pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
  global.lastIndex = 0;
  return text.replace(global, REDACTED);
}

/**
 * Removes secrets from text before a model sees it: API keys (`sk-…`, `sk-ant-…`, `AIza…`, GitHub
 * `ghp_…`/`gho_…`/`ghu_…`/`ghs_…`/`ghr_…`/`github_pat_…`), `Bearer` tokens, AWS access key ids, JWTs,
 * passwords in URLs and connection strings, the values of environment variables whose names contain KEY,
 * TOKEN, SECRET or PASSWORD (8 characters or longer), then `extra`. Never throws: if `extra` throws, the
 * whole text is withheld (fail closed). Callers bound the text first; the patterns are linear.
 */
export function redactSecrets(text: string, extra?: RedactOption): string {
  let out = text;
  try {
    for (const secret of envSecrets()) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    for (const [pattern, replacement] of BUILT_IN) {
      pattern.lastIndex = 0;
      out = out.replace(pattern, replacement);
    }
    if (extra === undefined) return out;
    if (typeof extra === 'function') {
      const cleaned = extra(out);
      return typeof cleaned === 'string' ? cleaned : REDACTED;
    }
    for (const pattern of extra instanceof RegExp ? [extra] : extra) out = applyPattern(out, pattern);
    return out;
  } catch {
    return `${REDACTED} (redaction failed, so the text was withheld)`;
  }
}
