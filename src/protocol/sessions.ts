/** Saved sessions as the UI sees them: the `/resume` picker's rows. */

/** One saved conversation of a project, from `$WARDEN_HOME/sessions/index/<id>.json`. */
export type SessionSummary = {
  id: string;
  /** The project's root (real path) the session ran in. */
  root: string;
  /** The first prompt, on one line, shortened. */
  title: string;
  model: string;
  createdAt: string;
  updatedAt: string;
  /** Prompts the person gave. */
  turns: number;
};
