import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * True while a live (non-zombie) process of group `pgid` exists. On Linux /proc is consulted because
 * where PID 1 does not reap orphans (containers without an init) killed members linger as zombies,
 * which `kill(-pgid, 0)` still reports.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return process.platform === 'linux' ? liveMembersOnLinux(pgid) : true;
}

/** Whether process `pid` exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

/** SIGTERM to the whole group, then SIGKILL once `graceMs` has passed with anything left. Contract: never throws. */
export async function killGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid)) return;
    await delay(20);
  }
  signalGroup(pgid, 'SIGKILL');
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

function liveMembersOnLinux(pgid: number): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  return pids.some((name) => {
    const stat = readStat(Number(name));
    return stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X';
  });
}

/**
 * When process `pid` started (clock ticks since boot, /proc/<pid>/stat field 22): with the pid it
 * names one process for good, since pids are reused. Undefined when unknown (gone, or not Linux).
 */
export function processStartTime(pid: number): string | undefined {
  return readStat(pid)?.startTime;
}

function readStat(pid: number): { state: string; pgrp: number; startTime: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses; the fields after its last ')' are fixed.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgrp: Number(fields[2]), startTime: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}
