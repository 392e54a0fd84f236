/**
 * The seccomp filter every sandboxed command runs under: no Unix socket can be made, so
 * no host service is reachable through one — an SSH agent, a database, a dev server's socket in the
 * project — whatever path it lies at and whenever it appears. The network namespace already cuts
 * abstract sockets and every network; `socketpair` stays allowed (pipes between a command's own
 * processes: node, make -j and test runners use it). io_uring is refused too: its SOCKET operation
 * makes sockets past this filter. A classic BPF program, as bubblewrap's `--seccomp FD` takes it.
 */
import { arch } from 'node:process';

// struct sock_filter: u16 code, u8 jt, u8 jf, u32 k — little-endian on every arch below.
type Insn = [code: number, jt: number, jf: number, k: number];
const LD_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const RET = 0x06; // BPF_RET | BPF_K
const ALLOW = 0x7fff0000;
const EPERM = 0x00050000 | 1; // SECCOMP_RET_ERRNO | EPERM
const AF_UNIX = 1;
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0 = 16; // args[0], low 32 bits

/** Syscall numbers per audit architecture: socket, io_uring_setup and (i386) socketcall. */
type ArchTable = { audit: number; socket: number[]; refused: number[] };

/** The architectures a filter is built for: the native one and the compat ABIs its kernel also runs. */
const TABLES: Record<string, ArchTable[]> = {
  x64: [
    // x86_64, and the x32 ABI (the same numbers with bit 30 set) under the same audit arch.
    { audit: 0xc000003e, socket: [41, 0x40000000 | 41], refused: [425, 0x40000000 | 425] },
    // i386 programs: socket(2) is 359, and socketcall(2) multiplexes it (its arguments are behind a pointer).
    { audit: 0x40000003, socket: [359], refused: [102, 425] },
  ],
  arm64: [
    { audit: 0xc00000b7, socket: [198], refused: [425] },
    { audit: 0x40000028, socket: [281], refused: [425] },
  ],
};

/** Whether a filter exists for this machine's architecture. */
export function seccompSupported(machine: string = arch): boolean {
  return TABLES[machine] !== undefined;
}

/**
 * The compiled filter for `machine` (Node's `process.arch`), or undefined where none is known.
 * Unknown architectures (a foreign binary under binfmt) are allowed through: the filter narrows sockets,
 * it is not a list of all syscalls.
 */
export function socketFilter(machine: string = arch): Buffer | undefined {
  if (!built.has(machine)) built.set(machine, compile(machine));
  return built.get(machine);
}

const built = new Map<string, Buffer | undefined>();

function compile(machine: string): Buffer | undefined {
  const tables = TABLES[machine];
  if (!tables) return undefined;
  const program: Insn[] = [[LD_ABS, 0, 0, OFFSET_ARCH]];
  // Per arch: [jeq arch? next : skip block] then the block. Built back to front to know the jumps.
  const blocks = tables.map(archBlock);
  const tail: Insn[] = [[RET, 0, 0, ALLOW]];
  const body: Insn[] = [];
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i] as Insn[];
    const table = tables[i] as ArchTable;
    body.unshift([JEQ, 0, block.length, table.audit], ...block);
  }
  program.push(...body, ...tail);
  const buf = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    buf.writeUInt16LE(code, i * 8);
    buf.writeUInt8(jt, i * 8 + 2);
    buf.writeUInt8(jf, i * 8 + 3);
    buf.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return buf;
}

/**
 * One arch's block, entered with the arch matched; every path ends in a RET, so a block never falls
 * into the next one's arch test.
 */
function archBlock(table: ArchTable): Insn[] {
  const block: Insn[] = [[LD_ABS, 0, 0, OFFSET_NR]];
  // Refused outright.
  for (const nr of table.refused) block.push([JEQ, 0, 1, nr], [RET, 0, 0, EPERM]);
  // socket(AF_UNIX, …): look at the first argument.
  const sockets = table.socket;
  sockets.forEach((nr, i) => {
    // Jump to the family check (placed after the remaining socket tests and the ALLOW).
    const toCheck = sockets.length - i;
    block.push([JEQ, toCheck, 0, nr]);
  });
  block.push([RET, 0, 0, ALLOW]);
  block.push([LD_ABS, 0, 0, OFFSET_ARG0], [JEQ, 0, 1, AF_UNIX], [RET, 0, 0, EPERM], [RET, 0, 0, ALLOW]);
  return block;
}
