/**
 * ipaddr.js, behind a function: the bundle loads it the first time an address is judged, not before
 * the first frame (scripts/side-modules.mjs swaps this file for a synchronous load of
 * dist/chunks/ipaddr.cjs). The judgement is synchronous and unchanged.
 */
import ipaddr from 'ipaddr.js';

/** The ipaddr.js module, exactly as the package exports it. */
export function ipaddrLib(): typeof ipaddr {
  return ipaddr;
}
