/**
 * What the package says about itself on its npm page, against package.json and the code:
 *
 * - README.md's opening installs `graceful-ai`, and what it states about the install holds: each `name@major` it
 *   names is the major graceful-ai accepts as a peer or is developed against, `ai` is the one required peer,
 *   `p-limit` the only runtime dependency, the Node version is `engines.node`;
 * - the "Quick start" (for a clone of the repository) runs `npm ci && npm run demo` and `npm ci && npm test`, and
 *   every `npm run` in the README names a script;
 * - package.json's `description` and the README's opening name every wire the fault kit serves;
 * - the version in package.json is the lockfile's.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WIRES } from '../../mocks/routes.js';
import type { Api } from '../../mocks/vocabulary.js';
import { section } from './markdown.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface PackageJson {
  name: string;
  version: string;
  description: string;
  engines: { node: string };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
}
const pkg = JSON.parse(read('package.json')) as PackageJson;
const readme = read('README.md');
/** Everything before the first `##` heading: what a visitor of the npm page reads first. */
const opening = readme.slice(0, readme.search(/^## /m));
/** The opening with line breaks as spaces, for sentences that a reflow may wrap anywhere. */
const openingText = opening.replace(/\s+/g, ' ');

/** The provider whose wire each fault-kit API is. */
const wireProvider: Record<Api, string> = {
  chat: 'OpenAI',
  responses: 'OpenAI',
  messages: 'Anthropic',
  generateContent: 'Gemini',
};

describe("README.md's opening", () => {
  it('installs the package by its name', () => {
    expect(pkg.name).toBe('graceful-ai');
    expect(opening).toMatch(/^npm i graceful-ai$/m);
  });

  it('names each package at the major graceful-ai accepts as a peer or is developed against', () => {
    const named = [...opening.matchAll(/`((?:@[\w-]+\/)?[\w.-]+)@(\d+)`/g)].map((m) => ({
      name: m[1]!,
      major: m[2]!,
    }));
    expect(named.map((n) => n.name)).toEqual(['ai', '@ai-sdk/openai', 'msw']);
    for (const { name, major } of named) {
      const range = pkg.peerDependencies[name] ?? pkg.devDependencies[name];
      expect(range, name).toMatch(new RegExp(`^\\^${major}\\.`));
    }
  });

  it('states the required peer, the runtime dependency and the Node version that package.json declares', () => {
    const required = Object.keys(pkg.peerDependencies).filter(
      (name) => !pkg.peerDependenciesMeta[name]?.optional,
    );
    expect(required).toEqual(['ai']);
    expect(openingText).toContain('`ai@7` is its one required peer dependency');
    expect(Object.keys(pkg.dependencies)).toEqual(['p-limit']);
    expect(openingText).toContain('The only runtime dependency is `p-limit`');
    expect(pkg.engines.node).toBe('>=22.3');
    expect(openingText).toContain('Node ≥ 22.3');
  });
});

describe('the "Quick start" section', () => {
  it('runs the demo and the tests from a clone', () => {
    const quickStart = section(readme, 'Quick start');
    expect(quickStart).toContain('npm ci && npm run demo');
    expect(quickStart).toContain('npm ci && npm test');
    expect(pkg.scripts.test).toBeDefined();
  });

  it('every `npm run` in the README names a script of package.json', () => {
    const runs = [...new Set([...readme.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!))];
    expect(runs).toContain('demo');
    expect(runs.filter((name) => pkg.scripts[name] === undefined)).toEqual([]);
  });
});

describe('package.json', () => {
  it("the description and the README's opening name every wire the fault kit serves", () => {
    expect(Object.keys(WIRES).sort()).toEqual(Object.keys(wireProvider).sort());
    for (const provider of new Set(Object.values(wireProvider))) {
      expect(pkg.description, provider).toContain(provider);
      expect(openingText, provider).toContain(provider);
    }
    expect(pkg.description).toContain('AI SDK v7');
    expect(pkg.peerDependencies.ai).toMatch(/^\^7\./);
  });

  it('the version is the lockfile version', () => {
    const lock = JSON.parse(read('package-lock.json')) as {
      version: string;
      packages: { '': { version: string } };
    };
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect([lock.version, lock.packages[''].version]).toEqual([pkg.version, pkg.version]);
  });
});
