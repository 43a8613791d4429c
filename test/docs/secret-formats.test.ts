/**
 * The table of secret formats in docs/graceful-tool.md against the code and the tests: it lists every format the
 * redaction knows by prefix and every kind the property tests generate, and nothing else.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KEY_FORMATS } from '../../src/redact/formats.js';
import { secretKinds } from '../src/redact/secret-samples.js';
import { markdownTables, section } from './markdown.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const page = 'docs/graceful-tool.md';
const rows = new Set(
  markdownTables(page, section(readFileSync(join(root, page), 'utf8'), 'Secret redaction'))
    .filter((cell) => cell.column === 0)
    .map((cell) => cell.text),
);
/** Covered by its own tests (it needs the environment), not by a generated sample. */
const ENVIRONMENT = 'environment variable values';

describe('the secret formats table', () => {
  it('lists every format known by its prefix', () => {
    expect(KEY_FORMATS.map((format) => format.name).filter((name) => !rows.has(name))).toEqual([]);
  });

  it('lists every kind the property tests generate', () => {
    expect([...new Set(secretKinds.map((kind) => kind.format))].filter((name) => !rows.has(name))).toEqual(
      [],
    );
  });

  it('lists nothing the code and the tests do not cover', () => {
    const known = new Set([
      ...KEY_FORMATS.map((f) => f.name),
      ...secretKinds.map((k) => k.format),
      ENVIRONMENT,
    ]);
    expect(rows.size).toBeGreaterThan(30);
    expect([...rows].filter((name) => !known.has(name))).toEqual([]);
  });
});
