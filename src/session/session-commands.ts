import { localIdentity } from '../answers/identity';
import type { AgentHub } from '../agent/hub';
import type { Gate } from '../gate/gate';
import type { GrantStore } from '../gate/grants';
import type { Feedback } from './feedback/feedback';
import type { PolicyRule } from '../policy/rules';
import type { CoreCommand, CoreEvent } from '../protocol';
import { PersonRules, ruleToKeep } from './person-rules';
import { initInstructions } from './init-command';
import { MODES } from '../protocol';
import type { SessionState } from './session-state';
import { attachMentions } from './attachments';
import { completePath } from './path-complete';
import type { PathFence } from '../policy/guards/path-guard';
import { PersonControl } from './person-control';
import type { ApprovedWrites } from './approved-writes';
import { TurnReviews } from './turn-review';
import type { CheckpointStore } from '../agent/checkpoints';
import { AuditQueries } from './audit-queries';
import type { HomeGuard } from '../trust/home-guard';
import type { ProjectTrust } from '../trust/project-trust';
import type { ContextControl } from './context-control';
import type { SessionInstructions } from './session-instructions';
import type { CustomCommands } from '../commands/custom-commands';
import { modeNotice, type SessionSettings } from './session-settings';
import { FIRST_OF_TWO } from '../gate/two-person';
import type { SessionMcp } from './wiring/mcp-wiring';
import { writeRule } from './wiring/trust-wiring';
import type { ManagedSettings } from '../config/managed';

export type SessionCommandDeps = {
  /** Resolves once the start banner is out (the sandbox's verdict): a prompt typed at once comes after it. */
  started?: () => Promise<void>;
  /** The project's trust: the card's answer, and a re-check of the files before each turn and after a save. */
  trust: ProjectTrust;
  /** warden's own settings files: the person's edits between turns are accepted, warden's own writes recorded. */
  homeGuard: HomeGuard;
  hub: AgentHub;
  gate: Gate;
  grants: GrantStore;
  /** Offers made from repeated approvals and edits (accept_suggestion, decline_suggestion). */
  feedback?: Feedback;
  view: SessionState;
  emit: (event: CoreEvent) => void;
  home: string;
  root: string;
  auditDir: string;
  /** The owner of the mode (and the rules, the sandbox verdict): `set_mode` changes it there. */
  settings: SessionSettings;
  /** The MCP servers: /mcp restarts one. */
  mcp: Pick<SessionMcp, 'restart'>;
  /** The name of the tool /undo calls through the gate (revert_turn), as the composition root built it. */
  undoTool: string;
  /** The tool that reads a file a person attaches with `@path` (read_file), called through the gate as the person. */
  attachTool?: string;
  /** The path fence: `@path` completion lists and attachments resolve through it. */
  fence?: PathFence;
  /** The tool `/init` writes AGENTS.md with (write_file). */
  writeTool?: string;
  /** The tool a person's `!command` runs through (execute_command). */
  personTool?: string | undefined;
  /** The session's checkpoints: each turn ends there, and its changes go to the turn review. */
  checkpoints: CheckpointStore;
  /** Show the turn review card after a turn that changed files. */
  reviewTurns: boolean;
  /** Writes a person approved on cards this turn, and the mode now: the review does not ask again for them. */
  approvedWrites?: ApprovedWrites;
  /** The context figure, /compact and /model. */
  context?: ContextControl;
  /** The instruction files (AGENTS.md), read again before each prompt. */
  instructions?: SessionInstructions;
  /** The custom slash commands (`run_command`), read again before each prompt. */
  customCommands?: Pick<CustomCommands, 'refresh' | 'expand'>;
  /** The managed layer: with `rulesOnly`, "don't ask again" and saved grants would save rules that do not count. */
  managed: ManagedSettings;
};

/** Carries out the UI's commands. Contract: `handle` never throws; problems come back as notices. */
export class SessionCommands {
  /** Turns running now, so shutdown can wait for them to end. */
  private readonly turns = new Set<Promise<unknown>>();

  /** Pages and stats for the audit browser. */
  private readonly audit: AuditQueries;

  /** The turn review (the output gate). */
  private readonly reviews: TurnReviews;

  /** Cancel, pause, resume, notes, plan edits and `!command`. */
  private readonly person: PersonControl;

  /** /policy test and "don't ask again". */
  private readonly rules: PersonRules;

  constructor(private readonly d: SessionCommandDeps) {
    this.person = new PersonControl({
      hub: d.hub,
      gate: d.gate,
      emit: d.emit,
      ...(d.personTool ? { personTool: d.personTool } : {}),
      track: (run) => {
        this.turns.add(run);
        void run.finally(() => this.turns.delete(run));
      },
    });
    this.reviews = new TurnReviews({
      checkpoints: d.checkpoints,
      gate: d.gate,
      emit: d.emit,
      reviewTurns: d.reviewTurns,
      revertTool: d.undoTool,
      ...(d.approvedWrites ? { approved: d.approvedWrites, mode: () => d.settings.mode, root: d.root } : {}),
    });
    this.audit = new AuditQueries(d.auditDir, d.emit);
    this.rules = new PersonRules({
      gate: d.gate,
      trust: d.trust,
      writeRule: (target, rule) => this.writeRule(target, rule),
      notice: (level, text) => this.notice(level, text),
    });
  }

  handle(command: CoreCommand): void {
    try {
      this.dispatch(command);
    } catch (err) {
      this.notice('error', `${command.type} failed: ${(err as Error).message}`);
    }
  }

  /** Runs a prompt as the main agent's next turn. Contract: never throws. */
  async runPrompt(
    text: string,
    shown?: string,
  ): Promise<{ status: 'done' | 'failed' | 'cancelled'; text: string }> {
    // The banner is the transcript's first entry: a prompt typed before the sandbox answered waits (~10 ms).
    await this.d.started?.();
    if (this.d.hub.busy) {
      this.notice('warn', 'A turn is still running: wait for it, or press Esc to cancel it.');
      return { status: 'failed', text: 'busy' };
    }
    this.d.view.addUser(shown ?? text);
    this.d.emit({ type: 'state_changed' });
    // No tool runs between turns: what changed in warden's home since is the person's edit. The
    // project's files are read again: a changed file's ask and deny rules count at once, its
    // loosening waits for the trust card.
    this.d.homeGuard.acceptAll();
    this.d.trust.refresh();
    // An AGENTS.md the person edited (or /init wrote) counts from this prompt on, in every agent's prompt.
    if (this.d.instructions?.load()) this.d.hub.refreshPrompts();
    this.d.customCommands?.refresh();
    // The turn's last checkpoint and its review belong to the turn: shutdown waits for them too.
    const turn = this.d.hub.runPrompt(await this.withAttachments(text)).then(async (r) => {
      await this.reviews.afterTurn();
      return r;
    });
    this.turns.add(turn);
    const result = await turn.finally(() => this.turns.delete(turn));
    this.d.emit({ type: 'state_changed' });
    return result;
  }

  /**
   * Resolves true once every turn started here has ended (its commands killed, its outcome lines
   * written), or false after `ms`. Used at shutdown, after the turns were cancelled.
   * Contract: never rejects.
   */
  async settled(ms: number): Promise<boolean> {
    if (this.turns.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const done = Promise.allSettled([...this.turns]).then(() => true as const);
    try {
      return await Promise.race([done, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private dispatch(c: CoreCommand): void {
    const d = this.d;
    switch (c.type) {
      case 'submit':
        if (c.text.trim()) void this.runPrompt(c.text);
        return;
      case 'run_command':
        void this.runCustom(String(c.name), typeof c.args === 'string' ? c.args : '');
        return;
      case 'decide': {
        const taskId =
          c.decision?.kind === 'cancel_task'
            ? d.gate.pending().find((r) => r.id === c.id)?.taskId
            : undefined;
        // "Don't ask again": the rule is the one the card offered for this scope, read before deciding.
        const keep =
          c.save === undefined ? undefined : ruleToKeep(d.gate.pending(), c.id, c.decision, d.managed);
        if (keep && !keep.ok) return this.notice('warn', keep.error);
        // The person at this app's keyboard: the audit names them and the channel.
        const result = d.gate.decide(c.id, c.decision, localIdentity('tui'));
        if (!result.ok) this.notice('warn', result.error);
        else if (result.waiting) this.notice('info', FIRST_OF_TWO);
        // `c` ends the requesting agent's whole task, not only its card.
        else this.person.cancelTaskOf(taskId);
        if (result.ok && keep?.ok && c.save)
          void this.rules.keep(c.save === 'user' ? 'user' : 'project', keep.ruleText);
        d.emit({ type: 'state_changed' });
        return;
      }
      case 'report_invalid_input':
        d.gate.reportInvalid(c.id);
        return;
      case 'cancel':
        if (!d.hub.cancelByPerson()) this.notice('info', 'Nothing is running.');
        return;
      case 'set_mode':
        if (!MODES.includes(c.mode))
          return this.notice('warn', `Unknown mode ${String(c.mode)}; use one of ${MODES.join(', ')}.`);
        return this.notice(...modeNotice(d.settings.chooseMode(c.mode), c.mode));
      case 'revoke_grant': {
        const revoked = d.grants.revoke(c.grantId);
        return this.notice(revoked ? 'info' : 'warn', revoked ? 'Grant revoked.' : 'No such grant.');
      }
      case 'save_grant':
        void this.rules.saveGrant(d.grants.get(c.grantId), c.target);
        return;
      case 'accept_suggestion':
        void this.acceptSuggestion(c.id, c.target === 'user' ? 'user' : 'project');
        return;
      case 'decline_suggestion':
        if (!d.feedback?.decline(c.id)) this.notice('warn', 'No such suggestion.');
        else this.notice('info', 'Not saved; warden will not offer it again this session.');
        d.emit({ type: 'state_changed' });
        return;
      case 'review_turn':
        void this.reviews.answer(c.turnId, c.action, c.paths);
        return;
      case 'undo':
        void this.undo(c.turns);
        return;
      case 'clear':
        d.hub.cancel();
        d.hub.clear();
        d.grants.planChanged();
        d.context?.reset();
        d.view.clear();
        d.emit({ type: 'state_changed' });
        return;
      case 'query_audit':
        this.audit.run(c.queryId, c.query, c.before, c.stats === true);
        return;
      case 'restart_mcp':
        void d.mcp.restart(c.server).then(
          () => this.notice('info', `Restarted the MCP server ${c.server}; its grants were dropped.`),
          (err: Error) => this.notice('error', err.message),
        );
        return;
      case 'trust_project':
        this.d.trust.decide(c.trust === true, String(c.hash));
        return;
      case 'complete_path': {
        const matches = d.fence ? completePath(d.fence, String(c.prefix)) : [];
        d.emit({ type: 'path_completions', requestId: c.requestId, prefix: c.prefix, matches });
        return;
      }
      case 'input_closed':
        d.gate.close('input_closed');
        d.hub.cancel();
        return;
      case 'quit':
        d.hub.cancel();
        this.person.stop();
        return;
      case 'compact':
        if (d.context) void d.context.compact();
        return;
      case 'accept_compact':
        d.context?.answer(String(c.id), c.accept === true);
        d.emit({ type: 'state_changed' });
        return;
      case 'set_model':
        d.context?.setModel(String(c.name));
        return;
      case 'list_models':
        if (d.context) void d.context.listModels();
        return;
      case 'init_instructions': {
        const { fence, writeTool, instructions } = d;
        if (!fence || !writeTool) return this.notice('warn', '/init cannot write files in this session.');
        void initInstructions({
          gate: d.gate,
          fence,
          writeTool,
          reload: () => instructions?.load() && d.hub.refreshPrompts(),
          notice: (level, text) => this.notice(level, text),
        });
        return;
      }
      case 'test_policy':
        void this.rules.test(String(c.command));
        return;
      case 'pause':
      case 'resume':
      case 'add_note':
      case 'run_as_person':
      case 'edit_plan':
        this.person.handle(c);
        return;
    }
  }

  /** `/name args`: a custom command's prompt, with its arguments, as the main agent's next turn. Contract: never rejects. */
  private async runCustom(name: string, args: string): Promise<void> {
    const commands = this.d.customCommands;
    if (!commands) return this.notice('warn', `There is no custom command /${name}.`);
    // A file edited since the last prompt runs as it is now (the project's: as trust read it).
    this.d.trust.refresh();
    commands.refresh();
    const found = commands.expand(name, args);
    if (!found.ok)
      return this.notice('warn', `${found.error.charAt(0).toUpperCase()}${found.error.slice(1)}.`);
    const shown = `/${found.info.name}${args.trim() ? ` ${args.trim()}` : ''}`;
    await this.runPrompt(found.prompt, shown);
  }

  /**
   * The prompt with the files it names as `@path` attached, each read through the gate as the
   * person: the fence, the credential-file rule (it asks) and the audit apply (attachments.ts).
   * Contract: never rejects.
   */
  private withAttachments(text: string): Promise<string> {
    const { attachTool: tool, fence } = this.d;
    if (!tool || !fence) return Promise.resolve(text);
    const taskId = `attach-${Date.now()}`;
    return attachMentions(text, {
      fence,
      read: (path) =>
        this.d.gate.intercept(
          { id: `${taskId}-${path}`, tool, args: { path }, why: `You attached @${path} to your prompt.` },
          { agentId: 'user', agentName: 'you', taskId, signal: new AbortController().signal },
        ),
      notice: (level, line) => this.notice(level, line),
    });
  }

  /** /undo goes through the gate like the model's revert_turn: a person confirms it, the audit records it. */
  private async undo(turns: number): Promise<void> {
    // Nothing to undo is said at once, not asked on a card that can only fail. The turn
    // that just ended may still be taking its checkpoint: wait for it, so it counts.
    await this.d.checkpoints.settled();
    const plan = await this.d.checkpoints.plan({ turns }).catch(() => undefined);
    if (plan && (plan.turns === 0 || plan.changes.length === 0))
      return this.notice('info', 'Nothing to undo: no turn of this project has changed files yet.');
    const result = await this.d.gate.intercept(
      {
        id: `undo-${Date.now()}`,
        tool: this.d.undoTool,
        args: { turns },
        why: 'You asked to undo with /undo.',
      },
      {
        agentId: 'user',
        agentName: 'you',
        taskId: `undo-${Date.now()}`,
        signal: new AbortController().signal,
      },
    );
    this.notice(
      result.status === 'executed' ? 'info' : 'warn',
      result.status === 'executed'
        ? (result.output ?? 'Reverted.')
        : `Undo ${result.status}: ${result.reason ?? ''}`,
    );
  }

  /** The one policy-save path (grants and accepted suggestions). Contract: never rejects. */
  writeRule(
    target: 'project' | 'user',
    rule: PolicyRule,
  ): Promise<{ ok: true; file: string } | { ok: false; error: string }> {
    return writeRule(this.d, target, rule);
  }

  private async acceptSuggestion(id: string, target: 'project' | 'user'): Promise<void> {
    const feedback = this.d.feedback;
    if (!feedback) return this.notice('warn', 'No such suggestion.');
    const shown = feedback.pending().find((s) => s.id === id);
    const result = await feedback.accept(id, target);
    this.d.emit({ type: 'state_changed' });
    if (!result.ok) return this.notice(shown ? 'error' : 'warn', result.error);
    const what = shown?.kind === 'preference' ? shown.line : shown?.kind === 'rule' ? shown.ruleText : '';
    this.notice('info', `Saved to ${result.file}: ${what}`);
  }

  private notice(level: 'info' | 'warn' | 'error', text: string): void {
    this.d.emit({ type: 'notice', level, text });
  }
}
