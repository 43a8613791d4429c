/**
 * The table of secret formats in docs/graceful-tool.md against the code and the tests: it shows every prefix the
 * redaction knows a key by, lists every kind the property tests generate, and nothing else.
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
const cells = markdownTables(page, section(readFileSync(join(root, page), 'utf8'), 'Secret redaction'));
const rows = new Set(cells.filter((cell) => cell.column === 0).map((cell) => cell.text));
/** The code spans of the "example shape" column (`sk-proj-…`, `AKIA`, …). */
const shapes = cells
  .filter((cell) => cell.column === 1)
  .flatMap((cell) => [...cell.text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
/** Covered by its own tests (it needs the environment), not by a generated sample. */
const ENVIRONMENT = 'environment variable values';

describe('the secret formats table', () => {
  it('shows every prefix a key is known by, at the start of an example shape', () => {
    const prefixes = KEY_FORMATS.flatMap((format) => format.prefixes);
    expect(prefixes.length).toBeGreaterThan(40);
    expect(prefixes.filter((prefix) => !shapes.some((shape) => shape.startsWith(prefix)))).toEqual([]);
  });

  it('lists every kind the property tests generate', () => {
    expect([...new Set(secretKinds.map((kind) => kind.format))].filter((name) => !rows.has(name))).toEqual(
      [],
    );
  });

  it('lists nothing the code and the tests do not cover', () => {
    const known = new Set([...secretKinds.map((k) => k.format), ENVIRONMENT]);
    expect(rows.size).toBeGreaterThan(30);
    expect([...rows].filter((name) => !known.has(name))).toEqual([]);
  });
});
