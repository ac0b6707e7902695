import { randomInt } from 'node:crypto';
import { DEV_APS_RESPONSE_PHRASE } from '../../src/server/config';
import { apsSignature } from '../../src/server/payments/aps-signature';
import { APS_FEEDBACK_PATH } from '../../src/server/routes/payments.routes';
import type { JourneyContext, JourneyOutcome } from './customer-journey';
import type { PageForm } from '../support/page-forms';
import { expectStatus } from './soak-http';

/**
 * The success reaches the server as the journey's mischief says, beside the sandbox's own feedback:
 * - none: the browser's return;
 * - return+feedback: the return and the same fields as a feedback at once (on another instance when there is one);
 * - return-x3: the return three times at once (three tabs, a reload);
 * - late-failure: the return, then an old failure: the declined first order's return again, or a
 *   genuinely signed failure (status 13, a new fort_id) for this same paid order.
 */
export async function deliverNotices(ctx: JourneyContext, paid: PageForm, outcome: JourneyOutcome, oldFailure: Record<string, string> | null) {
  const { http } = ctx;
  const feedbackUrl = `${ctx.otherBase ?? ''}${APS_FEEDBACK_PATH}`;
  switch (outcome.mischief) {
    case 'none':
      expectStatus('return', await http.form('return', paid.action, paid.fields), [303]);
      return;
    case 'return+feedback': {
      const [ret, feedback] = await Promise.all([http.form('return', paid.action, paid.fields), http.form('notice-extra', ctx.otherBase ? feedbackUrl : APS_FEEDBACK_PATH, paid.fields)]);
      expectStatus('return', ret, [303]);
      expectStatus('notice-extra', feedback, [200]);
      return;
    }
    case 'return-x3': {
      const answers = await Promise.all([0, 1, 2].map(() => http.form('return', paid.action, paid.fields)));
      for (const res of answers) expectStatus('return', res, [303]);
      return;
    }
    case 'late-failure': {
      expectStatus('return', await http.form('return', paid.action, paid.fields), [303]);
      const failure = oldFailure ?? forgedFailure(paid.fields);
      // A failure after the success: answered (200 repeated/applied, or 400 refused), never 5xx, and the order stays paid.
      expectStatus('notice-extra', await http.form('notice-extra', APS_FEEDBACK_PATH, failure), [200, 400]);
      if (oldFailure) expectStatus('notice-extra', await http.form('notice-extra', paid.action, failure), [303]);
      return;
    }
  }
}

/** A declined answer for the same order, signed with the (development) response phrase as APS would sign it. */
function forgedFailure(success: Record<string, string>): Record<string, string> {
  const { signature: _signature, authorization_code: _code, ...rest } = success;
  const fields = {
    ...rest,
    fort_id: `17${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e7)).padStart(7, '0')}`,
    status: '13',
    response_code: '13666',
    response_message: 'Transaction declined',
  };
  return { ...fields, signature: apsSignature(fields, DEV_APS_RESPONSE_PHRASE, 'sha256') };
}

