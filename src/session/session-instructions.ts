import { type InstructionFile, instructionsBlock, readInstructions } from '../agent/instructions';
import type { CoreState } from '../protocol';

/**
 * The instruction files of a session (src/agent/instructions.ts): read at start and again before each
 * prompt (an AGENTS.md the person edited, or the one /init wrote, counts from the next request), listed
 * in the state for /memory. A file that cannot be read is said once, not before every prompt.
 * Contract: never throws.
 */
export class SessionInstructions {
  private files: InstructionFile[] = [];
  private block: string | undefined;
  private said = new Set<string>();

  constructor(
    private readonly d: {
      home: string;
      root: string;
      cwd?: string | undefined;
      state: CoreState;
      warn: (text: string) => void;
    },
  ) {}

  /** Reads the files again; true when what goes into the prompt changed. */
  load(): boolean {
    const read = readInstructions({
      home: this.d.home,
      root: this.d.root,
      ...(this.d.cwd !== undefined ? { cwd: this.d.cwd } : {}),
    });
    for (const reason of read.skipped) {
      if (this.said.has(reason)) continue;
      this.said.add(reason);
      this.d.warn(reason);
    }
    const block = instructionsBlock(read.files);
    const changed = block !== this.block;
    this.files = read.files;
    this.block = block;
    this.d.state.instructions = this.files.map(({ text: _t, ...info }) => info);
    return changed;
  }

  /** What every agent's system prompt carries of the files. */
  text(): string | undefined {
    return this.block;
  }
}
