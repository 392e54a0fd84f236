/**
 * The session's custom slash commands: the person's `$WARDEN_HOME/commands/*.md` and the project's
 * `.warden/commands/*.md` — the project's only once its files are trusted (src/trust binds the text to
 * the trust record, and that text is what runs). A built-in command's name is never replaced, and the
 * person's own command wins over the project's of the same name; each of those, and every file that
 * does not parse, is said once. Contract: never throws.
 */
import type { CustomCommandInfo } from '../protocol';
import { expandCommand, parseCommandFile } from './command-file';
import { type CommandFolderRead, readUserCommands } from '../policy/read-commands';

type Entry = { info: CustomCommandInfo; body: string };

export type CustomCommandsDeps = {
  home: string;
  /** The built-in commands' names (they win). */
  builtins: readonly string[];
  /** The project's command files as trust read them, and whether they count. */
  project: () => { read: CommandFolderRead; trusted: boolean };
  /** Said once per problem. */
  warn: (text: string) => void;
  /** Hears the list after each refresh (the session puts it in its state). */
  publish?: (list: CustomCommandInfo[]) => void;
};

export class CustomCommands {
  private entries: Entry[] = [];
  private readonly said = new Set<string>();

  constructor(private readonly d: CustomCommandsDeps) {}

  /** Reads the person's folder again and takes the project's as trust has it now. */
  refresh(): void {
    const builtins = new Set(this.d.builtins);
    const problems: string[] = [];
    const entries: Entry[] = [];
    const project = this.d.project();
    const take = (read: CommandFolderRead, source: 'user' | 'project', counts: boolean) => {
      if (counts) problems.push(...read.problems);
      for (const f of read.files) {
        if (f.kind === 'error') {
          if (counts) problems.push(`${f.file}: ${f.error}; the command /${f.name} is not loaded`);
          continue;
        }
        const parsed = parseCommandFile(f.text);
        if (!parsed.ok) {
          if (counts) problems.push(`${f.file}: ${parsed.error}; the command /${f.name} is not loaded`);
          continue;
        }
        if (counts) for (const why of parsed.file.ignored) problems.push(`${f.file}: ${why} (ignored)`);
        const info: CustomCommandInfo = {
          name: f.name,
          source,
          file: f.file,
          ...(parsed.file.description ? { description: parsed.file.description } : {}),
          ...(parsed.file.argumentHint ? { argumentHint: parsed.file.argumentHint } : {}),
        };
        const mine = entries.find((e) => e.info.name === f.name && !e.info.hidden);
        if (builtins.has(f.name)) {
          info.hidden = 'built-in';
          if (counts)
            problems.push(
              `/${f.name} (${f.file}) has the name of a built-in command: the built-in /${f.name} stays; rename the file to use it`,
            );
        } else if (mine) {
          info.hidden = 'yours';
          problems.push(
            `/${f.name} of the project (${f.file}) is hidden by your own /${f.name} (${mine.info.file})`,
          );
        } else if (!counts) info.hidden = 'untrusted';
        entries.push({ info, body: parsed.file.body });
      }
    };
    take(readUserCommands(this.d.home), 'user', true);
    take(project.read, 'project', project.trusted);
    this.entries = entries;
    this.d.publish?.(this.list());
    for (const p of problems) {
      if (this.said.has(p)) continue;
      this.said.add(p);
      this.d.warn(`Custom commands: ${p}.`);
    }
  }

  /** Every command file that loaded, the offered ones and the hidden ones (with why). */
  list(): CustomCommandInfo[] {
    return this.entries.map((e) => e.info);
  }

  /** The prompt `/name args` sends, or why there is none. */
  expand(
    name: string,
    args: string,
  ): { ok: true; prompt: string; info: CustomCommandInfo } | { ok: false; error: string } {
    const key = name.toLowerCase();
    const entry = this.entries.find((e) => e.info.name === key && !e.info.hidden);
    if (entry) return { ok: true, prompt: expandCommand(entry.body, args), info: entry.info };
    const held = this.entries.find((e) => e.info.name === key);
    if (held?.info.hidden === 'untrusted')
      return {
        ok: false,
        error: `/${key} is the project's (${held.info.file}) and its .warden files are not trusted yet: trust them on the card (or with --trust-project) to use it`,
      };
    if (held?.info.hidden === 'built-in') return { ok: false, error: `/${key} is a built-in command` };
    return { ok: false, error: `there is no custom command /${key}` };
  }
}
