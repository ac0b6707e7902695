import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

/** The main website's pages linked from the footer (spec §1), grouped as the footer shows them. */
export const MAIN_SITE_LINK_GROUPS: { title: MessageDescriptor; links: { slug: string; label: MessageDescriptor }[] }[] = [
  {
    title: msg`Insurance`,
    links: [
      { slug: 'travel-insurance', label: msg`Travel insurance` },
      { slug: 'car-insurance', label: msg`Car insurance` },
      { slug: 'bike-insurance-lebanon', label: msg`Bike insurance` },
      { slug: 'health-insurance', label: msg`Health insurance` },
      { slug: 'expat-health-insurance', label: msg`Expat health insurance` },
      { slug: 'corporate-solutions', label: msg`Corporate solutions` },
    ],
  },
  {
    title: msg`Company`,
    links: [
      { slug: 'about-us', label: msg`About us` },
      { slug: 'insurance-partners', label: msg`Insurance partners` },
      { slug: 'blog', label: msg`Blog` },
      { slug: 'contact-us', label: msg`Contact us` },
    ],
  },
  {
    title: msg`Help`,
    links: [
      { slug: 'help-center', label: msg`Help center` },
      { slug: 'faqs', label: msg`FAQs` },
      { slug: 'privacy-policy', label: msg`Privacy policy` },
      { slug: 'terms-and-conditions', label: msg`Terms and conditions` },
    ],
  },
];

export const mainSiteUrl = (base: string, slug: string) => `${base}/${slug}`;
