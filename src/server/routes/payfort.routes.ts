import { Hono } from 'hono';
import { payfortDataEndpoint, type PayfortOrderCode } from '../../contract/payfort.endpoints';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import type { MessageKey } from '../http/messages';
import { Refusal, refusing } from '../orders/refusal';
import { loadPaymentForm } from '../payments/payment-form';

const REFUSALS: Record<'paid' | 'failed' | 'expired', { key: MessageKey; code: PayfortOrderCode }> = {
  paid: { key: 'pay_order_paid', code: 'order_paid' },
  failed: { key: 'pay_order_failed', code: 'order_failed' },
  expired: { key: 'pay_order_expired', code: 'order_expired' },
};

/**
 * payfort-data (spec §7, RULINGS 19): the signed redirection form of the lead's pending order,
 * built by loadPaymentForm exactly as the payments page builds it. 404 for a reference that is
 * not this lead's (whether it exists or not, RULINGS 24); 409 order_paid / order_failed /
 * order_expired for an attempt that can no longer be paid.
 */
export function payfortRoutes(db: Db, config: AppConfig, now: () => number) {
  const app = new Hono<AppEnv>();
  app.post(
    payfortDataEndpoint.path,
    endpointHandler(payfortDataEndpoint, (input, c) =>
      refusing(c, async () => {
        const state = await loadPaymentForm(db, config, { reference: input.merchant_reference, lang: input.language ?? null, now: now() });
        if (state.state === 'not_found' || state.leadUuid !== input.uuid) {
          throw new Refusal(404, 'not_found', { merchant_reference: 'not_found' });
        }
        if (state.state !== 'pending') {
          const refusal = REFUSALS[state.state];
          throw new Refusal(409, refusal.key, { merchant_reference: refusal.code });
        }
        return { url: state.form.url, fields: state.form.fields };
      }),
    ),
  );
  return app;
}
