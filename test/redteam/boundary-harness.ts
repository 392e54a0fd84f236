/**
 * The boundary red team's harness (issue 26): execute_command through the real bubblewrap sandbox,
 * with a fake home and a host folder outside /tmp full of planted secrets, each in temp folders of
 * their own that are removed afterwards. The layout is built from the fake home, never the real one.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PathFence } from '../../src/policy/guards/path-guard';
import { createExecuteCommandTool, defaultExecuteCommandEffects } from '../../src/tools/exec/execute-command';
import { type SandboxLayout, findOnPath, wardenHomeMasks } from '../../src/tools/exec/sandbox';
import { MountPointLedger } from '../../src/tools/exec/sandbox-mount-points';
import { sandboxState } from '../../src/tools/exec/sandbox-state';
import { hostView } from '../../src/tools/exec/sandbox-view';
import type { ToolContext } from '../../src/tools/types';
import { allowAllCommands } from '../helpers/tool-context';

export const bwrap = process.platform === 'linux' ? findOnPath('bwrap') : undefined;

/** A secret no command output may hold. */
export const MARK = 'WARDEN-BOUNDARY-SECRET-7f3a';

export type Boundary = {
  root: string;
  /** A fake home with planted credentials (what the sandbox must not show). */
  home: string;
  /** A host folder outside /tmp (which the sandbox replaces anyway) with a planted secret. */
  outside: string;
  wardenHome: string;
  layout: SandboxLayout;
  write(rel: string, content: string): string;
  run(
    command: string,
    o?: { lift?: string[]; unmask?: string[]; readPaths?: string[]; sealed?: string[] },
  ): Promise<{ text: string; exitCode: number | null | undefined; ok: boolean; data: unknown }>;
  cleanup(): void;
};

/** A project, a fake home and an outside folder, each planted; `cleanup()` removes them all. */
export function makeBoundary(): Boundary {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'warden-boundary-')));
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'warden-boundary-home-')));
  // /var/tmp: a host folder the old sandbox showed (it bound / read-only); outside the private /tmp.
  const outside = realpathSync(mkdtempSync('/var/tmp/warden-boundary-out-'));
  const wardenHome = join(home, '.warden');
  for (const [rel, content] of Object.entries({
    '.ssh/id_rsa': `-----BEGIN OPENSSH PRIVATE KEY-----\n${MARK}\n`,
    '.aws/credentials': `[default]\naws_secret_access_key = ${MARK}\n`,
    '.npmrc': `//registry.npmjs.org/:_authToken=${MARK}\n`,
    '.gitconfig': `[user]\n\tname = Pat\n\temail = pat@example.com\n[credential]\n\thelper = store ${MARK}\n[url "https://x:${MARK}@github.com/"]\n\tinsteadOf = https://github.com/\n`,
    '.bash_history': `export TOKEN=${MARK}\n`,
    '.warden/audit/audit-2026-01-01.jsonl': `{"args":"${MARK}"}\n`,
    '.warden/sessions/s.jsonl': `${MARK}\n`,
    '.warden/keys/answers.key': `${MARK}\n`,
    '.npm/_cacache/index-v5/x': 'cache entry\n',
    '.cargo/credentials.toml': `[registry]\ntoken = "${MARK}"\n`,
    '.cargo/bin/cargo-fake': '#!/bin/sh\necho fake cargo\n',
  })) {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), content, { mode: 0o755 });
  }
  writeFileSync(join(outside, 'secret.txt'), `${MARK}\n`);
  const state = sandboxState(home);
  const build = (readPaths: string[] = []): SandboxLayout => ({
    state,
    view: hostView({
      root,
      home,
      wardenHome,
      pathEnv: `${join(home, '.cargo/bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      readPaths,
      state,
    }),
  });
  const ledgerDir = realpathSync(mkdtempSync(join(tmpdir(), 'warden-boundary-ledger-')));
  const b: Boundary = {
    root,
    home,
    outside,
    wardenHome,
    layout: build(),
    write(rel, content) {
      const path = join(root, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    async run(command, o = {}) {
      const layout = o.readPaths ? build(o.readPaths) : b.layout;
      const tool = createExecuteCommandTool({
        ...defaultExecuteCommandEffects,
        graceMs: 300,
        ledger: new MountPointLedger(ledgerDir),
        layout: () => layout,
        hiddenPaths: () => wardenHomeMasks(wardenHome),
      });
      const ctx: ToolContext = {
        root,
        fence: o.sealed ? new PathFence(root, undefined, { sealed: o.sealed }) : new PathFence(root),
        commands: allowAllCommands,
        sandbox: { kind: 'bwrap', path: bwrap as string },
        signal: new AbortController().signal,
        ...(o.lift ? { liftProtected: o.lift.map((p) => join(root, p)) } : {}),
        ...(o.unmask ? { unmaskCredentials: o.unmask.map((p) => join(root, p)) } : {}),
      };
      const result = await tool.execute({ command, timeout_ms: 20_000 }, ctx);
      const data = result.data as { exitCode?: number | null } | undefined;
      return {
        text: result.ok ? result.output : result.error,
        exitCode: data?.exitCode,
        ok: result.ok,
        data,
      };
    },
    cleanup() {
      for (const dir of [root, home, outside, ledgerDir]) rmSync(dir, { recursive: true, force: true });
    },
  };
  return b;
}
