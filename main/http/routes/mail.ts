import { Router } from 'express';
import { MailDailySchema, MailListQuerySchema, MailSettingsSchema, MailTestSchema } from '../../../shared/api/mail.js';
import type { MailService } from '../../mail/mail-service.js';
import { callerOf } from '../auth.js';
import { parseBody, parseQuery } from '../validation.js';

/** The mail queue (write key): `GET /mail`, `POST /mail/test`, `POST /mail/daily`, `POST /mail/settings`. */
export function mailRoutes(mail: MailService): Router {
  const router = Router();
  router.get('/mail', (req, res) => {
    res.json(mail.list(callerOf(res).orgId, parseQuery(MailListQuerySchema, req.query)));
  });
  router.post('/mail/test', (req, res) => {
    res.status(202).json({ data: mail.sendTest(callerOf(res).orgId, parseBody(MailTestSchema, req.body).to) });
  });
  router.post('/mail/daily', (req, res) => {
    res.json({ data: mail.queueDaily(callerOf(res).orgId, parseBody(MailDailySchema, req.body).date) });
  });
  router.post('/mail/settings', (req, res) => {
    mail.setSettings(callerOf(res).orgId, parseBody(MailSettingsSchema, req.body));
    res.json({ success: true });
  });
  return router;
}
