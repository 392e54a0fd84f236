import { initialCoreState } from '../../src/session/session-state';
import type { AuditRecord, AuditStats } from '../../src/protocol/audit';
import type {
  ApprovalRequest,
  CoreClient,
  CoreCommand,
  CoreEvent,
  CoreState,
  TranscriptEntry,
} from '../../src/protocol';
import { ofTypes } from '../../src/protocol/client';

/** A minimal, valid CoreState; pass overrides for what a test cares about. */
export function makeState(overrides: Partial<CoreState> = {}): CoreState {
  return {
    ...initialCoreState({
      sessionId: 'sess-test',
      root: '/tmp/project',
      model: { name: 'test-model', demo: false },
      mode: 'manual',
      sandboxed: true,
    }),
    ...overrides,
  };
}

/** An approval request for `write_file` with a diff preview unless overridden. */
export function makeRequest(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    id: 'req-1',
    agentId: 'main',
    agentName: 'main',
    taskId: 'task-1',
    tool: 'write_file',
    args: { path: 'src/a.ts', content: 'export const a = 1;\n' },
    argsHash: 'hash-1',
    risk: { level: 'medium', reasons: ['writes a file'] },
    rule: { id: 'ask-writes', source: 'builtin' },
    explanation: 'Writes ask in manual mode.',
    preview: { kind: 'diff', path: 'src/a.ts', before: '', after: 'export const a = 1;\n', isNew: true },
    reversible: true,
    createdAt: '2025-01-02T10:00:00.000Z',
    grantOptions: [],
    ...overrides,
  };
}

/** One audit line (an executed outcome approved by a human) unless overridden. */
export function makeAuditRecord(overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    ts: '2025-01-02T10:00:00.000Z',
    sessionId: 'sess-test',
    agentId: 'main',
    taskId: 'task-1',
    tool: 'write_file',
    args: { path: 'src/a.ts' },
    argsHash: 'hash-1',
    decision: 'ask',
    approver: 'human',
    outcome: 'executed',
    phase: 'outcome',
    rule: 'ask-writes',
    risk: 'medium',
    ...overrides,
  };
}

/** Stats for an audit_result event; zeros unless overridden. */
export function makeStats(overrides: Partial<AuditStats> = {}): AuditStats {
  return {
    total: 0,
    byOutcome: {},
    byApprover: {},
    approveRate: 0,
    rejectRate: 0,
    editRate: 0,
    waitMedianMs: null,
    waitP95Ms: null,
    ...overrides,
  };
}

/** `count` alternating user/assistant entries, all finished. */
export function makeTranscript(count: number): TranscriptEntry[] {
  return Array.from(
    { length: count },
    (_, i): TranscriptEntry =>
      i % 2 === 0
        ? { kind: 'user', id: `u${i}`, text: `question ${i}` }
        : { kind: 'assistant', id: `a${i}`, agentId: 'main', text: `answer ${i}`, streaming: false },
  );
}

/** The event side of a CoreClient for tests: `subscribe` and `changes` over one set of listeners, `emit` and `count`. */
export function eventHub(): Pick<CoreClient, 'subscribe' | 'changes'> & {
  emit(event: CoreEvent): void;
  count(): number;
} {
  const listeners = new Set<(event: CoreEvent) => void>();
  const listen = (listener: (event: CoreEvent) => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  return {
    subscribe: (listener, only) => listen(ofTypes(listener, only)),
    changes: (listener) => listen((event) => listener(event.type)),
    emit: (event) => {
      for (const listener of [...listeners]) listener(event);
    },
    count: () => listeners.size,
  };
}

/**
 * A scriptable CoreClient for tests: the state is replaced (never mutated) by `update`, every
 * sent command is recorded in `sent`, and `emit` delivers an event to every subscriber.
 */
export class FakeCore implements CoreClient {
  state: CoreState;
  readonly sent: CoreCommand[] = [];
  /** Called after a command is recorded, e.g. to answer `query_audit` with an `audit_result`. */
  onCommand?: (command: CoreCommand, core: FakeCore) => void;
  private readonly hub = eventHub();

  constructor(overrides: Partial<CoreState> = {}) {
    this.state = makeState(overrides);
  }

  subscribe(listener: (event: CoreEvent) => void, only?: readonly CoreEvent['type'][]): () => void {
    return this.hub.subscribe(listener, only);
  }

  changes(listener: (type: CoreEvent['type']) => void): () => void {
    return this.hub.changes(listener);
  }

  send(command: CoreCommand): void {
    this.sent.push(command);
    this.onCommand?.(command, this);
  }

  snapshot(): CoreState {
    return this.state;
  }

  emit(event: CoreEvent): void {
    this.hub.emit(event);
  }

  /** Replaces the state with a patched copy and emits `state_changed`. */
  update(patch: Partial<CoreState> | ((state: CoreState) => Partial<CoreState>)): void {
    const next = typeof patch === 'function' ? patch(this.state) : patch;
    this.state = { ...this.state, ...next };
    this.emit({ type: 'state_changed' });
  }

  /** Commands of one type, narrowed, in the order they were sent. */
  sentOf<T extends CoreCommand['type']>(type: T): Extract<CoreCommand, { type: T }>[] {
    return this.sent.filter((c): c is Extract<CoreCommand, { type: T }> => c.type === type);
  }

  get listenerCount(): number {
    return this.hub.count();
  }
}
