/**
 * The only contract between the UI and the core. The UI renders `CoreClient.snapshot()` plus the
 * events it receives, and changes anything only by sending a `CoreCommand`; each command names the
 * event that answers it. Types only (and the `MODES` list): importing this pulls in no core code.
 */
export * from './approval';
export * from './audit';
export * from './client';
export * from './commands';
export * from './events';
export * from './feedback';
export * from './review';
export * from './state';
export * from './sessions';
