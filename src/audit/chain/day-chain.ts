/**
 * The writer's side of the hash chain: under the folder's append lock, where the open day file's
 * chain stands (from the cache when the file is as this writer left it, else from its last line), a
 * torn tail repaired as a link of the chain, and the lines to write with their links.
 */
import { repairTornChainTail } from '../tail-repair';
import { type ChainFs, type ChainHead, dayPath, daysBefore, GENESIS_HASH, headAt } from './chain-head';
import { type ChainLink, chainedLine, lineHash } from './line-hash';

/**
 * Lines ready to write in one go: their text, each line (newline included) and link, and the
 * hash and seq the chain has after them (its size is known once the text is written).
 */
export type ChainedText = { text: string; lines: string[]; links: ChainLink[]; hash: string; seq: number };

export class DayChain {
  /** The head after this writer's last write, for the file it wrote (valid while the file's size is its size). */
  private cached: (ChainHead & { fd: number; day: string }) | undefined;
  /** The latest day this writer wrote. */
  private newestDay = '';
  private day = { from: 0, until: 0, name: '' };
  private todayBegun: { day: string; begun: boolean } | undefined;

  constructor(
    private readonly fs: ChainFs,
    private readonly dir: string,
    private readonly marker: () => { ts: string; sessionId: string },
  ) {}

  /**
   * Where the chain of `day`'s open file stands; a torn tail is repaired first (its marker a link).
   * Call with the append lock held; `fresh`: it was just taken, so another writer may have appended
   * since this one wrote (while it stays held, nobody else can). Contract: throws when the file
   * cannot be read or repaired.
   */
  headOf(fd: number, day: string, fresh: boolean): ChainHead {
    const c = this.cached;
    const mine = c !== undefined && c.fd === fd && c.day === day;
    if (mine && !fresh) return c;
    const size = this.fs.fstatSync(fd).size;
    if (mine && c.size === size) return c;
    const before = () => this.linkBefore(day);
    const repaired = repairTornChainTail(this.fs, fd, this.marker(), (end) =>
      headAt(this.fs, fd, end, before),
    );
    return repaired ?? headAt(this.fs, fd, size, before);
  }

  /** The records' JSON after `head`, each with `fields` (the writer's identity) and its link. */
  chain(records: readonly { json: string }[], fields: string, head: ChainHead): ChainedText {
    let { hash, seq } = head;
    let text = '';
    const links: ChainLink[] = [];
    const lines: string[] = [];
    for (const { json } of records) {
      const link = { seq: seq + 1, prevHash: hash };
      const line = chainedLine(json, link, fields);
      hash = lineHash(line);
      seq = link.seq;
      text += line;
      links.push(link);
      lines.push(line);
    }
    return { text, lines, links, hash, seq };
  }

  /**
   * The file a line stamped on `day` goes to: a line stamped before midnight and written after goes
   * into the new day's file once that has begun (by this writer or another), so the day before keeps
   * the last line the new day links to. Call with the append lock held.
   */
  dayFor(day: string, now: Date, fresh: boolean): string {
    if (day < this.newestDay) return this.newestDay;
    const today = this.today(now);
    if (day >= today || today <= this.newestDay) return day;
    // Whether today's file has begun: looked at once while the lock stays held (nobody else can
    // begin it then), without an exception (this runs for every line of a day gone by).
    if (fresh || this.todayBegun?.day !== today) {
      const st = this.fs.statSync(dayPath(this.dir, today), { throwIfNoEntry: false });
      this.todayBegun = { day: today, begun: st !== undefined && st.size > 0 };
    }
    return this.todayBegun.begun ? today : day;
  }

  /** The UTC day of `now` (worked out once a day). */
  private today(now: Date): string {
    const t = now.getTime();
    if (t < this.day.from || t >= this.day.until) {
      const from = t - (t % 86_400_000);
      this.day = { from, until: from + 86_400_000, name: new Date(from).toISOString().slice(0, 10) };
    }
    return this.day.name;
  }

  /** `chained` was written whole, `bytes` long, after `head`: the next write starts after it unless the file changed. */
  wrote(fd: number, day: string, head: ChainHead, chained: ChainedText, bytes: number): void {
    this.cached = { hash: chained.hash, seq: chained.seq, size: head.size + bytes, fd, day };
    if (day > this.newestDay) this.newestDay = day;
  }

  /** A write failed or the file closed: the next head is read from the file. */
  forget(): void {
    this.cached = undefined;
  }

  /**
   * What a day's first line links to: the last line of the latest earlier day file that has one (a
   * torn tail there repaired first, so the link is to a line `--verify` can check), else GENESIS.
   */
  private linkBefore(day: string): string {
    for (const earlier of daysBefore(this.fs, this.dir, day)) {
      let fd: number | undefined;
      try {
        fd = this.fs.openSync(dayPath(this.dir, earlier), 'a+', 0o600);
        const at = fd;
        const st = this.fs.fstatSync(at);
        if (!st.isFile() || st.size === 0) continue;
        const inner = () => this.linkBefore(earlier);
        const repaired = repairTornChainTail(this.fs, at, this.marker(), (end) =>
          headAt(this.fs, at, end, inner),
        );
        return (repaired ?? headAt(this.fs, at, st.size, inner)).hash;
      } catch {
        // An earlier day that cannot be read does not stop today's log: the link skips it, and
        // `--verify` shows the break.
      } finally {
        if (fd !== undefined) this.fs.closeSync(fd);
      }
    }
    return GENESIS_HASH;
  }
}
