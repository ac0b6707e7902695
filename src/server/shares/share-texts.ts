import type { Language } from '../../contract/endpoint';

/**
 * Texts an agent sends a customer (RULINGS 15). The link is the page the agent shares, always
 * under PUBLIC_URL: only its path and query come from the request, so no one can make Safar
 * send a customer a link to another site. Without one, it is the lead's quotes page.
 */
export function shareLink(publicUrl: string, uuid: string, link: string | null | undefined, lang: Language): string {
  if (!link) return `${publicUrl}/compare-quotes?uuid=${encodeURIComponent(uuid)}&lang=${lang}`;
  const given = new URL(link);
  return `${publicUrl}${given.pathname}${given.search}`;
}

/** The WhatsApp message with the page link (whatapp_template of spec §7). */
export function whatsappTemplate(lang: Language, customerName: string, link: string): string {
  const firstName = customerName.trim().split(/\s+/)[0] ?? '';
  return lang === 'ar'
    ? `مرحبًا ${firstName}، هذه خطط تأمين السفر التي اخترناها لرحلتك على سفر: ${link}`
    : `Hello ${firstName}, here are the travel insurance plans we picked for your trip on Safar: ${link}`;
}
