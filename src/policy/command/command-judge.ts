import { createRequire } from 'node:module';
import type { Language, Parser as ParserType } from 'web-tree-sitter';
import { withBaselineWasm } from '../../v8-heap';
import { display, type JudgedPart, judgePart } from './command-judge-part';
import { CommandCollector } from './command-parse';
import { type RawCommand, rootScope } from './command-raw';
import { CwdTracker } from './command-cwd';
import type { CommandGuard, CommandPart, CommandVerdict } from './command-types';

/** Past these limits the guard does not judge; the gate asks. */
export const COMMAND_LIMITS = { maxLength: 10_000, maxParts: 50, maxDepth: 4 } as const;

/**
 * The command judge: the bash grammar and every rule of src/policy/command/. Loaded by
 * `loadCommandGuard` (command-guard.ts) when the first command is to be judged, so none of it is
 * compiled on the way to the first screen.
 */
export async function createGuard(): Promise<CommandGuard> {
  // Not named `require`: the bundle's banner already declares one at the top level.
  const resolveHere = createRequire(import.meta.url);
  const { Parser, Language } = await import('web-tree-sitter');
  const runtimeWasm = resolveHere.resolve('web-tree-sitter/tree-sitter.wasm');
  const bash = await withBaselineWasm(async () => {
    await Parser.init({ locateFile: () => runtimeWasm });
    return Language.load(resolveHere.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  });
  loadedBash = bash;
  const parser = new Parser();
  parser.setLanguage(bash);
  return { judge: (command) => judgeSafely(parser, command) };
}

let loadedBash: Language | undefined;

/**
 * The bash language `createGuard` loaded (undefined before): the redactor's reader of command lines
 * parses with it too, rather than loading and compiling the grammar's wasm a second time.
 */
export function loadedBashLanguage(): Language | undefined {
  return loadedBash;
}

/**
 * The verdict on `command` without the grammar, the same one the full guard gives, or undefined when
 * some line in it — the line itself or code it runs (`bash -c '…'`, `trap`) — is more than words
 * (command-plain.ts): only the grammar can read that one. Contract: never throws.
 */
export function judgeWithoutGrammar(command: string): CommandVerdict | undefined {
  return judgeSafely(undefined, command);
}

function judgeSafely(parser: ParserType, command: string): CommandVerdict;
function judgeSafely(parser: ParserType | undefined, command: string): CommandVerdict | undefined;
function judgeSafely(parser: ParserType | undefined, command: string): CommandVerdict | undefined {
  try {
    return judgeCommand(parser, command);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { kind: 'cannot_judge', reason: `The command guard failed: ${message}`, parts: [], notes: [] };
  }
}

function judgeCommand(parser: ParserType | undefined, command: string): CommandVerdict | undefined {
  if (typeof command !== 'string') return cannot('The command is not text.');
  if (command.length > COMMAND_LIMITS.maxLength) {
    return cannot(`The command is ${command.length} characters long (limit ${COMMAND_LIMITS.maxLength}).`);
  }
  if (command.trim() === '') return cannot('The command is empty.');
  // The grammar takes backslash-CR-LF as a line continuation; bash escapes the CR and ends the line
  // at the LF, so it runs the next line as a command of its own (`echo ok \` CRLF `rm -f x`).
  if (command.includes('\\\r'))
    return cannot(
      'A backslash before a carriage return: bash runs the next line as its own command, the parser joins them.',
    );
  const collector = new CommandCollector(parser, {
    maxDepth: COMMAND_LIMITS.maxDepth,
    maxParts: COMMAND_LIMITS.maxParts,
  });
  collector.collectSource(command, rootScope());
  const judged: JudgedPart[] = [];
  // Tracks `cd / && rm -rf *` and `cd src && echo x > out` (writes src/out), per subshell.
  const cwd = new CwdTracker();
  // Judging may queue more commands (the code of `bash -c`), so the list can grow under the loop.
  for (let i = 0; i < collector.commands.length && i <= COMMAND_LIMITS.maxParts; i++) {
    const raw = collector.commands[i] as RawCommand;
    const part = judgePart(collector, raw, cwd.at(raw.shell));
    cwd.follow(raw.shell, part.part.argv);
    judged.push(part);
  }
  return collector.needsGrammar ? undefined : verdictOf(collector, judged);
}

function verdictOf(collector: CommandCollector, judged: readonly JudgedPart[]): CommandVerdict {
  const parts: CommandPart[] = judged.map((j) => j.part);
  const notes = [...new Set(judged.flatMap((j) => j.notes))];
  const denied = judged.find((j) => j.deny);
  if (denied?.deny) {
    const { ruleId, reason } = denied.deny;
    return { kind: 'deny', ruleId, reason, part: display(denied.part.text), parts, notes };
  }
  const problems = [...collector.problems, ...judged.flatMap((j) => j.problems)];
  if (collector.overflow) problems.unshift(`The command has more than ${COMMAND_LIMITS.maxParts} parts.`);
  if (problems.length === 0 && parts.length === 0)
    problems.push('The command runs nothing the guard can see.');
  if (problems.length > 0) return cannot(problems[0] as string, parts, notes);
  const destructive = [...new Set(parts.flatMap((p) => (p.destructive ? [p.destructive] : [])))];
  return { kind: 'ok', parts, readOnly: parts.every((p) => p.readOnly), destructive, notes };
}

function cannot(reason: string, parts: CommandPart[] = [], notes: string[] = []): CommandVerdict {
  return { kind: 'cannot_judge', reason, parts, notes };
}
