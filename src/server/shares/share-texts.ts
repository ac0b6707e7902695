import type { Language } from '../../contract/endpoint';

/**
 * Texts an agent sends a customer (RULINGS 15). The link is the page the agent shares; when the
 * SPA sent none, it is the quotes page of the lead under PUBLIC_URL.
 */
export function shareLink(publicUrl: string, uuid: string, link: string | null | undefined, lang: Language): string {
  return link ?? `${publicUrl}/compare-quotes?uuid=${encodeURIComponent(uuid)}&lang=${lang}`;
}

/** The WhatsApp message with the page link (whatapp_template of spec §7). */
export function whatsappTemplate(lang: Language, customerName: string, link: string): string {
  const firstName = customerName.trim().split(/\s+/)[0] ?? '';
  return lang === 'ar'
    ? `مرحبًا ${firstName}، هذه خطط تأمين السفر التي اخترناها لرحلتك على سفر: ${link}`
    : `Hello ${firstName}, here are the travel insurance plans we picked for your trip on Safar: ${link}`;
}
