import type { Node, Parser } from 'web-tree-sitter';
import { type Arg, innerScope, type RawCommand, type Scope, type SubRange } from './command-raw';
import { newSink, readRedirect } from './command-redirects';
import { hiddenContinuation, hiddenSyntax } from './command-hidden-syntax';
import { plainWords } from './command-plain';
import { joinContinuations } from './command-join';
import { describeParseError, childNodes as kids } from './command-tree';
import { evaluateWord, markDynamic } from './command-words';

/** What `{}` stands for in `find -exec` / `fd -x`: each file found, unknown until run time. */
export const FOUND_FILE = markDynamic('{}');

/**
 * Walks tree-sitter-bash syntax trees into simple commands: lists, pipelines, subshells, groups,
 * substitutions, here-docs, loops, conditionals and function bodies all end up as RawCommands.
 * A plain line (only words, command-plain.ts) is read without the grammar, the same way; with no
 * parser (the grammar not loaded yet) any other line sets `needsGrammar` and is not read.
 * Contract: never throws for a parsed tree; what it cannot read lands in `problems`.
 */
export class CommandCollector {
  readonly commands: RawCommand[] = [];
  readonly problems: string[] = [];
  /** Set when a line needed the grammar and there was no parser: the verdict is not given. */
  needsGrammar = false;
  /** Functions defined in the line: name → id of the first command after the definition. */
  readonly functionsDefined = new Map<string, number>();
  private nextPipe = 0;
  private nextShell = 0;
  /** Words a redirection swallowed (see `RedirectSink.words`), by the start of the command they belong to. */
  private readonly swallowed = new Map<number, Node[][]>();
  /** Where redirections of enclosing statements start: a number right before one is its descriptor (`0<`). */
  private readonly redirectStarts = new Set<number>();

  constructor(
    private readonly parser: Parser | undefined,
    private readonly limits: { maxDepth: number; maxParts: number },
  ) {}

  get overflow(): boolean {
    return this.commands.length > this.limits.maxParts;
  }

  /** A fresh subshell id: commands in it cannot move the working directory of the rest. */
  newShellId(): number {
    return this.nextShell++;
  }

  /** Parses shell source (the whole line, or a `bash -c` string) and collects its commands. */
  collectSource(source: string, scope: Scope): void {
    if (scope.depth > this.limits.maxDepth) {
      this.problems.push(`Shell commands are nested more than ${this.limits.maxDepth} levels deep.`);
      return;
    }
    const plain = plainWords(source);
    if (plain !== undefined) {
      this.add(source.trim(), scope).args = plain.map((value) => ({ value, subs: [] }));
      return;
    }
    if (this.parser === undefined) {
      this.needsGrammar = true;
      return;
    }
    // A continuation inside a word is judged as bash reads it (joined), or refused where that cannot be told.
    const continuation = hiddenContinuation(source);
    const joined = continuation ? joinContinuations(source) : source;
    if (joined === undefined && continuation) this.problems.push(continuation);
    const text = joined ?? source;
    const tree = this.parser.parse(text);
    if (!tree) {
      this.problems.push('The shell parser returned nothing.');
      return;
    }
    try {
      if (tree.rootNode.hasError) this.problems.push(describeParseError(tree.rootNode, text));
      else {
        this.problems.push(...hiddenSyntax(tree.rootNode));
        this.walk(tree.rootNode, scope);
      }
    } finally {
      tree.delete();
    }
  }

  private walk(node: Node, scope: Scope): void {
    if (this.overflow) return;
    switch (node.type) {
      case 'command':
        return this.command(node, scope);
      case 'pipeline':
        return this.pipeline(
          kids(node).filter((c) => c.isNamed),
          scope,
        );
      case 'redirected_statement':
        return this.redirected(node, scope);
      case 'function_definition': {
        const body = node.childForFieldName('body');
        const name = node.childForFieldName('name')?.text ?? '';
        if (body)
          this.walk(body, {
            ...this.definitionRedirects(node, scope),
            functions: [...scope.functions, name],
          });
        this.functionsDefined.set(name, this.commands.length);
        return;
      }
      case 'variable_assignment':
      case 'variable_assignments':
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node, scope);
      case 'command_substitution':
      case 'process_substitution':
        this.substitution(node, scope);
        return;
      case 'subshell':
        return this.walkChildren(node, this.subshell(scope));
      case 'test_command': {
        // `[[ … ]]` is a command that only tests; what it expands is walked with it.
        const raw = this.add(node.text, scope);
        raw.args = [{ value: '[[', subs: [] }];
        return this.walkChildren(node, innerScope(scope));
      }
      case 'comment':
        return;
      default:
        this.walkChildren(node, scope);
    }
  }

  /**
   * `f() { echo x; } > out; f`: bash applies a definition's redirections every time the function
   * runs, so its body is judged as writing there (red team: the line was read-only, and wrote out).
   */
  private definitionRedirects(node: Node, scope: Scope): Scope {
    const sink = newSink();
    for (const r of node.childrenForFieldName('redirect')) if (r) readRedirect(r, scope, sink, this);
    if (sink.words.length + sink.pipeTails.length + sink.rights.length > 0)
      this.problems.push('A function definition has redirections the guard cannot read.');
    return {
      ...scope,
      redirects: [...scope.redirects, ...sink.redirects],
      stdin: sink.stdin ?? scope.stdin,
    };
  }

  /** Walks named children; a statement followed by `&` runs in the background. */
  private walkChildren(node: Node, scope: Scope): void {
    const children = kids(node);
    children.forEach((child, i) => {
      if (!child.isNamed) return;
      const background = children[i + 1]?.type === '&';
      this.walk(child, background ? { ...this.subshell(scope), background: true } : scope);
    });
  }

  private pipeline(stages: readonly Node[], scope: Scope, first = 0, id = this.nextPipe++): void {
    // Every stage of a pipeline runs in its own subshell.
    stages.forEach((stage, i) =>
      this.walk(stage, { ...this.subshell(scope), pipes: [...scope.pipes, { id, stage: first + i }] }),
    );
  }

  private subshell(scope: Scope): Scope {
    return { ...scope, shell: [...scope.shell, this.newShellId()] };
  }

  private command(node: Node, scope: Scope): void {
    const groups: Node[][] = [];
    const assignments: Node[] = [];
    const redirectNodes: Node[] = [];
    let previous: Node | undefined;
    kids(node).forEach((child, i) => {
      const field = node.fieldNameForChild(i);
      if (child.type === 'variable_assignment') assignments.push(child);
      else if (field === 'redirect' || child.type.endsWith('_redirect')) redirectNodes.push(child);
      else if (field === 'name' || field === 'argument') {
        const nodes = child.type === 'command_name' ? kids(child) : [child];
        // Adjacent nodes with no space between them are one shell word (`$"x"`, `a'b'`).
        const last = groups[groups.length - 1];
        if (last && previous && previous.endIndex === child.startIndex) last.push(...nodes);
        else groups.push(nodes);
        previous = child;
      }
    });
    const raw = this.add(node.text, scope);
    const inner = innerScope(scope);
    raw.assignments = assignments.map((a) => a.childForFieldName('name')?.text ?? a.text);
    for (const a of assignments) this.evaluate(kids(a), inner);
    const sink = newSink();
    for (const r of redirectNodes) readRedirect(r, scope, sink, this);
    // `find <x . -delete` runs `find . -delete`: swallowed words go back in their place in the line.
    const swallowed = [...(this.takeSwallowed(node) ?? []), ...sink.words];
    // tree-sitter reads the `0` of `cat 0< x` as an argument; bash reads it as the redirection's descriptor.
    const own = groups.filter(
      (g) => !(g.length === 1 && g[0]?.type === 'number' && this.redirectStarts.has(g[0].endIndex)),
    );
    const words =
      swallowed.length === 0 ? own : [...own, ...swallowed].sort((a, b) => startOf(a) - startOf(b));
    raw.args = words.flatMap((g) => this.evaluate(g, inner));
    if (redirectNodes.length === 0) return;
    raw.redirects = [...raw.redirects, ...sink.redirects];
    if (sink.stdin) raw.stdin = sink.stdin;
    for (const rest of [...sink.pipeTails, ...sink.rights]) this.walk(rest, scope);
  }

  /** The words a redirection outside this command node swallowed for it (consumed once). */
  private takeSwallowed(node: Node): Node[][] | undefined {
    const words = this.swallowed.get(node.startIndex);
    if (words) this.swallowed.delete(node.startIndex);
    return words;
  }

  /**
   * Hands words a statement's redirection swallowed to the simple command bash gives them to: the
   * statement itself, or the last command of its list or pipeline (`a && b > f c` runs `b c`).
   * A compound body (`{ …; } > f c`) is a syntax error to bash; the guard does not guess.
   */
  private giveSwallowed(body: Node | null, words: Node[][]): void {
    if (words.length === 0) return;
    let owner = body;
    while (owner && (owner.type === 'list' || owner.type === 'pipeline'))
      owner =
        kids(owner)
          .filter((c) => c.isNamed)
          .pop() ?? null;
    if (owner?.type === 'command') this.swallowed.set(owner.startIndex, words);
    else this.problems.push('Words follow a redirection of a compound command, which the guard cannot read.');
  }

  private redirected(node: Node, scope: Scope): void {
    const body = node.childForFieldName('body');
    const sink = newSink();
    kids(node).forEach((child, i) => {
      if (node.fieldNameForChild(i) === 'redirect' || child.type.endsWith('_redirect')) {
        this.redirectStarts.add(child.startIndex);
        readRedirect(child, scope, sink, this);
      }
    });
    this.giveSwallowed(body, sink.words);
    const inner: Scope = {
      ...scope,
      redirects: [...scope.redirects, ...sink.redirects],
      stdin: sink.stdin ?? scope.stdin,
    };
    if (sink.pipeTails.length > 0) {
      // `cat <<EOF | sh`: tree-sitter hangs the rest of the pipeline off the here-doc.
      const id = this.nextPipe++;
      this.pipeline(body ? [body] : [], inner, 0, id);
      const tails = sink.pipeTails.flatMap((t) => kids(t).filter((c) => c.isNamed));
      this.pipeline(tails, scope, 1, id);
    } else if (body) this.walkRedirected(body, scope, inner);
    else this.add(node.text, inner);
    for (const right of sink.rights) this.walk(right, scope);
  }

  /**
   * tree-sitter hangs `a && b > f` and `a | b > f` off the whole list or pipeline; bash gives the
   * redirection to the last command only. Compound bodies (`( … ) > f`, loops) keep it for all.
   */
  private walkRedirected(body: Node, scope: Scope, inner: Scope): void {
    const named = kids(body).filter((c) => c.isNamed);
    if (body.type === 'list' && named.length > 0) {
      named.forEach((c, i) =>
        i === named.length - 1 ? this.walkRedirected(c, scope, inner) : this.walk(c, scope),
      );
    } else if (body.type === 'pipeline' && named.length > 0) {
      const id = this.nextPipe++;
      named.forEach((stage, i) => {
        const base = i === named.length - 1 ? inner : scope;
        this.walk(stage, { ...this.subshell(base), pipes: [...scope.pipes, { id, stage: i }] });
      });
    } else this.walk(body, inner);
  }

  private declaration(node: Node, scope: Scope): void {
    const raw = this.add(node.text, scope);
    const inner = innerScope(scope);
    if (node.type === 'variable_assignment' || node.type === 'variable_assignments') {
      const assigns =
        node.type === 'variable_assignment'
          ? [node]
          : kids(node).filter((c) => c.type === 'variable_assignment');
      raw.assignments = assigns.map((a) => a.childForFieldName('name')?.text ?? a.text);
      for (const a of assigns) this.evaluate(kids(a), inner);
      return;
    }
    // `export A=$(…)`, `local x`, `unset y`: the keyword is the command, the rest its words.
    const keyword = kids(node).find((c) => !c.isNamed)?.text ?? node.type;
    const words = kids(node).filter((c) => c.isNamed);
    const args = words.flatMap((w) => this.evaluate(w.type === 'variable_assignment' ? kids(w) : [w], inner));
    raw.args = [{ value: keyword, subs: [] }, ...args];
  }

  /** Walks a `$(…)`, backtick or `<(…)` body; returns the ids of the commands found in it. */
  substitution(node: Node, outer: Scope): SubRange {
    const from = this.commands.length;
    const text = node.text;
    const scope = this.subshell(outer);
    if (text.startsWith('`') && text.includes('\\`')) {
      // Escaped backticks nest substitutions; bash unescapes the body and parses it again.
      this.collectSource(text.slice(1, -1).replace(/\\([\\`$])/g, '$1'), {
        ...scope,
        depth: scope.depth + 1,
      });
    } else this.walkChildren(node, scope);
    return { from, to: this.commands.length };
  }

  /** Adds a command another one starts (`find -exec rm {} ;`), judged like any other part. */
  spawn(parent: RawCommand, args: Arg[], within: string[]): void {
    if (this.overflow) return;
    const { pipes, background, functions, depth, shell } = parent;
    const raw = this.add(args.map((a) => a.value).join(' '), {
      pipes,
      background,
      functions,
      redirects: [],
      depth,
      shell: [...shell, this.newShellId()],
    });
    raw.args = args.map((a) => (/\{[/.]*\}/.test(a.value) ? { ...a, value: FOUND_FILE } : a));
    raw.within = within;
  }

  /** Evaluates one word (adjacent nodes) and walks the substitutions inside it. */
  evaluate(nodes: readonly Node[], scope: Scope): Arg[] {
    if (nodes.length === 0) return [];
    const { values, substitutions, glob } = evaluateWord(nodes);
    const subs = substitutions.map((s) => this.substitution(s, scope));
    return values.map((value) => (glob ? { value, subs, glob } : { value, subs }));
  }

  private add(text: string, scope: Scope): RawCommand {
    const raw: RawCommand = {
      id: this.commands.length,
      text,
      args: [],
      assignments: [],
      redirects: scope.redirects,
      background: scope.background,
      pipes: scope.pipes,
      functions: scope.functions,
      depth: scope.depth,
      shell: scope.shell,
      ...(scope.stdin ? { stdin: scope.stdin } : {}),
    };
    this.commands.push(raw);
    return raw;
  }
}

/** Where a shell word starts in the source. */
const startOf = (word: readonly Node[]): number => word[0]?.startIndex ?? 0;
