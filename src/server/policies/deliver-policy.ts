import { and, eq, isNull } from 'drizzle-orm';
import type { AppConfig } from '../app';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { errorFacts, type LogError } from '../http/error-handler';
import { createMailer } from '../mail/mailer';
import { policyMail } from '../mail/policy-mail';
import { loadCertificateByPolicyId } from './certificate-data';
import { certificatePdf, passportName } from './certificate-pdf';
import { priceLines } from '../orders/price-lines';
import { certificatePath } from './issue-policy';

/** The configuration delivering a policy needs: the mail transport and the site's address. */
export type DeliveryConfig = Pick<AppConfig, 'smtpUrl' | 'mailFrom' | 'outboxDir' | 'publicUrl'>;

export interface PolicyDelivery {
  /**
   * E-mails a just-issued policy's certificate to the customer, in the order's language, with the
   * PDF attached (RULINGS 21, 22), and records mailed_at. Called once, by whoever issued the
   * policy, after its transaction committed. Never throws: a failure is logged (facts only) and
   * leaves mailed_at null for the broker to see.
   */
  deliver(policyId: number): Promise<void>;
}

/** A policy that does not exist (anymore) cannot be delivered: logged like any other failure. */
export class PolicyNotFoundError extends Error {}

/**
 * The policy delivery of the app: certificate-data.ts reads the policy, certificate-pdf.ts draws
 * it, policy-mail.ts words the mail in the order's language, and the mailer sends it to the
 * lead's e-mail (the address the customer gave for this trip; changing it needs the lead's
 * session, RULINGS 24). A policy already mailed is not mailed again.
 */
export function createPolicyDelivery(db: Db, config: DeliveryConfig, now: () => number, logError: LogError): PolicyDelivery {
  const mailer = createMailer(db, config, now);
  return {
    async deliver(policyId) {
      try {
        const data = await loadCertificateByPolicyId(db, policyId);
        if (!data) throw new PolicyNotFoundError();
        if (data.mailedAt !== null) return;
        const pdf = await certificatePdf(data);
        const lang = data.order.lang;
        const ar = lang === 'ar';
        const mail = policyMail(lang, {
          customerName: data.customerName,
          policyNumber: data.policyNumber,
          insurerName: ar ? data.insurer.nameAr : data.insurer.nameEn,
          planName: ar ? data.plan.nameAr : data.plan.nameEn,
          coverageName: ar ? data.plan.coverageAr : data.plan.coverageEn,
          startDate: data.trip.startDate,
          endDate: data.trip.endDate,
          travellers: data.travellers.map(passportName),
          addons: data.addons.map((addon) => (ar ? addon.nameAr : addon.nameEn)),
          // The receipt the certificate and the payments page show, in the mail's language.
          lines: priceLines(data, lang, { wrapCode: ar ? (code) => `\u2066${code}\u2069` : undefined }),
          link: `${config.publicUrl}${certificatePath(data.downloadToken)}`,
        });
        await mailer.send({
          kind: 'policy',
          leadId: data.leadId,
          to: data.email,
          ...mail,
          attachments: [{ filename: `${data.policyNumber}.pdf`, content: pdf, contentType: 'application/pdf' }],
        });
        await db
          .update(t.policies)
          .set({ mailedAt: new Date(now()) })
          .where(and(eq(t.policies.id, policyId), isNull(t.policies.mailedAt)));
      } catch (error) {
        try {
          logError({ event: 'policy_mail_failed', policy_id: policyId, ...errorFacts(error) });
        } catch {
          // A failing log sink must not make delivery throw into the payment that called it.
        }
      }
    },
  };
}
