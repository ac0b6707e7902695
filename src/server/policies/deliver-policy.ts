import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { OutgoingMail } from '../mail/mailer';
import { isolateLtr } from '../mail/bidi';
import { policyPagePath } from '../../contract/policy-page.endpoints';
import { policyMail } from '../mail/policy-mail';
import { loadCertificateByPolicyId } from './certificate-data';
import { certificatePdf, passportName } from './certificate-pdf';
import { priceLines } from '../orders/price-lines';
import { certificatePath } from './issue-policy';
import { coverageText } from '../quoting/quote-views';

/** The configuration delivering a policy needs: the mail transport and the site's address. */
export type DeliveryConfig = Pick<AppConfig, 'smtpUrl' | 'mailFrom' | 'outboxDir' | 'publicUrl'>;

/** A policy that does not exist (anymore) cannot be delivered: the outbox marks its row failed. */
export class PolicyNotFoundError extends Error {}

/**
 * The certificate mail of a policy (RULINGS 21, 22), built by the outbox worker (mail/outbox.ts)
 * for each attempt: certificate-data.ts reads the policy, certificate-pdf.ts draws it,
 * policy-mail.ts words the mail in the order's language, and it goes to the lead's e-mail (the
 * address the customer gave for this trip; changing it needs the lead's session, RULINGS 24).
 */
export async function policyOutgoingMail(db: Db, config: Pick<DeliveryConfig, 'publicUrl'>, policyId: number): Promise<OutgoingMail> {
  const data = await loadCertificateByPolicyId(db, policyId);
  if (!data) throw new PolicyNotFoundError();
  const pdf = await certificatePdf(data, config.publicUrl);
  const lang = data.order.lang;
  const ar = lang === 'ar';
  const mail = policyMail(lang, {
    customerName: data.customerName,
    policyNumber: data.policyNumber,
    insurerName: ar ? data.insurer.nameAr : data.insurer.nameEn,
    planName: ar ? data.plan.nameAr : data.plan.nameEn,
    coverageName: ar ? coverageText(data.plan.coverageAr, lang) : data.plan.coverageEn,
    startDate: data.trip.startDate,
    endDate: data.trip.endDate,
    travellers: data.travellers.map(passportName),
    addons: data.addons.map((addon) => (ar ? addon.nameAr : addon.nameEn)),
    // The receipt the certificate and the payments page show, in the mail's language.
    lines: priceLines(data, lang, { wrapCode: ar ? isolateLtr : undefined }),
    link: `${config.publicUrl}${certificatePath(data.downloadToken)}`,
    pageLink: `${config.publicUrl}${policyPagePath(data.pageToken)}`,
  });
  // An Arabic-speaking customer gets the Arabic certificate too (issue 37 item 3); embassies ask for the English one.
  const arabic = ar ? [{ filename: `${data.policyNumber}-ar.pdf`, content: await certificatePdf(data, config.publicUrl, 'ar'), contentType: 'application/pdf' }] : [];
  return {
    kind: 'policy',
    leadId: data.leadId,
    to: data.email,
    ...mail,
    attachments: [{ filename: `${data.policyNumber}.pdf`, content: pdf, contentType: 'application/pdf' }, ...arabic],
  };
}
