/**
 * Debian's Chromium, driven by playwright-core: no browser download, nothing shared with a user's profile.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';

/** Headless, no sandbox (containers, root), and no traffic of its own: updates, sync, QUIC probes. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type ChromiumPlan = { run: true } | { run: false; fail: boolean; message: string };

/** Run when Chromium is there; without it, fail under CI (which installs it) and skip with a notice elsewhere. */
export function planChromium(installed: boolean, env: Record<string, string | undefined>): ChromiumPlan {
  if (installed) return { run: true };
  const message = `${chromiumPath} is missing: install Debian's Chromium (\`sudo apt-get install -y chromium\`) to run the browser test.`;
  return env.CI === 'true' ? { run: false, fail: true, message } : { run: false, fail: false, message };
}

export const chromiumPlan = (): ChromiumPlan => planChromium(existsSync(chromiumPath), process.env);

/** A running Chromium: its one context (pages, init scripts) and `close()`. */
export interface LaunchedChromium {
  context: BrowserContext;
  /** Ends the browser, then deletes its profile. */
  close(): Promise<void>;
}

/**
 * Chromium with a fresh profile: `--user-data-dir` (which Playwright passes itself) in a new temporary folder.
 * `options`: the context's viewport and device scale (a screenshot's size), Playwright's defaults otherwise.
 */
export async function launchChromium(
  options: Pick<BrowserContextOptions, 'viewport' | 'deviceScaleFactor'> = {},
): Promise<LaunchedChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'graceful-ai-chromium-'));
  // Chromium writes to its profile until it exits: delete it only after that.
  const removeProfile = () => rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      args: chromiumArgs,
      ...options,
    });
    return {
      context,
      close: async () => {
        await context.close();
        removeProfile();
      },
    };
  } catch (error) {
    removeProfile();
    throw error;
  }
}
