import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CommandGuard } from '../../src/policy/command/command-types';
import { PathFence } from '../../src/policy/guards/path-guard';
import type { SandboxInfo, ToolContext } from '../../src/tools/types';

/** A command guard that judges everything fine: the gate, not the tool, judges commands. */
export const allowAllCommands: CommandGuard = {
  judge: () => ({ kind: 'ok', parts: [], readOnly: false, destructive: [], notes: [] }),
};

export type TestToolContext = {
  ctx: ToolContext;
  /** Real path of the temp project root. */
  root: string;
  /** Absolute paths passed to recordPreImage, in order. */
  preImages: string[];
  abort: AbortController;
  /** Writes files (creating folders) under the root: `{ 'src/a.ts': 'text' }`. */
  write(files: Record<string, string>): void;
  /** A fresh temp folder outside the project (removed by cleanup), for escape tests. */
  outsideDir(): string;
  cleanup(): void;
};

/**
 * A ToolContext over a fresh temp project: a real PathFence, an allow-all command guard, no sandbox
 * unless given, and a recordPreImage that remembers its calls. Call `cleanup()` in afterEach.
 */
export function makeToolContext(
  options: {
    sandbox?: SandboxInfo;
    files?: Record<string, string>;
    prefix?: string;
    signal?: AbortSignal;
  } = {},
): TestToolContext {
  const root = realpathSync(mkdtempSync(join(tmpdir(), options.prefix ?? 'warden-tools-')));
  const preImages: string[] = [];
  const abort = new AbortController();
  const ctx: ToolContext = {
    root,
    fence: new PathFence(root),
    commands: allowAllCommands,
    sandbox: options.sandbox ?? { kind: 'none', reason: 'test context' },
    signal: options.signal ?? abort.signal,
    recordPreImage: async (absPath) => {
      preImages.push(absPath);
    },
  };
  const write = (files: Record<string, string>) => {
    for (const [rel, content] of Object.entries(files)) {
      const abs = join(root, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
    }
  };
  if (options.files) write(options.files);
  const extra: string[] = [];
  const outsideDir = () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'warden-outside-')));
    extra.push(dir);
    return dir;
  };
  const cleanup = () => {
    abort.abort();
    for (const dir of [root, ...extra]) rmSync(dir, { recursive: true, force: true });
  };
  return { ctx, root, preImages, abort, write, outsideDir, cleanup };
}
