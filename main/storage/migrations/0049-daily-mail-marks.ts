import type { Migration } from './index.js';

/**
 * The last day whose suppliers' sales mails an organization queued on its
 * own schedule: after a PC was off, the days since are caught up; a PC that
 * starts mailing does not mail its whole past.
 */
export const dailyMailMarks: Migration = {
  version: 49,
  name: 'daily-mail-marks',
  sql: `
CREATE TABLE daily_mail_marks (
  org_id TEXT PRIMARY KEY,
  last_day TEXT NOT NULL
);
`,
};
