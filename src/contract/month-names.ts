import type { Language } from './endpoint';

/**
 * The months as the app writes dates: English abbreviations as Intl's en-GB "short" month
 * writes them ("Sept" included), and the Levantine Arabic names Lebanese readers use (تشرين
 * الثاني, not نوفمبر) as ar-LB writes them. Written out, not made with Intl: the Arabic date data
 * cost the quote list's first render 50 ms on a phone (issue 19). A test holds them to Intl.
 */
export const MONTH_NAMES: Record<Language, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'],
  ar: ['كانون الثاني', 'شباط', 'آذار', 'نيسان', 'أيار', 'حزيران', 'تموز', 'آب', 'أيلول', 'تشرين الأول', 'تشرين الثاني', 'كانون الأول'],
};
