/**
 * Logos of the fictional demo insurers (RULINGS 10), drawn by hand as small SVGs and served at
 * /img/<image> (spec §7: quote images load from /img/{image}). The insurers table names the
 * image; a broker who adds an insurer adds its logo here or points `logo` at a real asset host.
 */

const frame = (bg: string, motif: string, name: string, accent: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 64" width="160" height="64" role="img" aria-label="${name}">` +
  `<rect x="1" y="1" width="158" height="62" rx="10" fill="#fff" stroke="${bg}" stroke-width="2"/>` +
  `<rect x="6" y="6" width="52" height="52" rx="8" fill="${bg}"/>${motif}` +
  `<text x="66" y="30" font-family="Helvetica,Arial,sans-serif" font-size="15" font-weight="700" fill="${bg}">${name.split(' ')[0]}</text>` +
  `<text x="66" y="48" font-family="Helvetica,Arial,sans-serif" font-size="11" fill="${accent}">${name.split(' ').slice(1).join(' ')}</text>` +
  `</svg>`;

export const INSURER_LOGOS: Readonly<Record<string, string>> = {
  // A cedar: three stacked branches on a trunk.
  'cedar-mutual.svg': frame(
    '#1b6b3a',
    '<path d="M32 12 L46 26 H38 L50 38 H38 L52 48 H12 L26 38 H14 L26 26 H18 Z" fill="#e8f5ec"/><rect x="29" y="48" width="6" height="6" fill="#e8f5ec"/>',
    'Cedar Mutual',
    '#4a7d5a',
  ),
  // A rising phoenix: a sun with two wings.
  'phoenicia-assurance.svg': frame(
    '#8a1c4a',
    '<circle cx="32" cy="36" r="9" fill="#ffd27a"/><path d="M10 30 Q22 18 32 30 Q42 18 54 30 Q44 28 32 40 Q20 28 10 30 Z" fill="#fbe3ee"/>',
    'Phoenicia Assurance',
    '#a0577a',
  ),
  // An old harbour wall with a sail.
  'byblos-global.svg': frame(
    '#14507a',
    '<path d="M30 12 V42 H14 Z" fill="#e3f0fa"/><path d="M34 18 V42 H48 Z" fill="#9cc8e8"/><path d="M10 46 H54 L48 54 H16 Z" fill="#e3f0fa"/>',
    'Byblos Global',
    '#4d7c9c',
  ),
  // A shield with a check mark.
  'levant-shield.svg': frame(
    '#5b3f99',
    '<path d="M32 10 L50 17 V31 Q50 47 32 55 Q14 47 14 31 V17 Z" fill="#ece6fa"/><path d="M23 32 L30 39 L42 25" stroke="#5b3f99" stroke-width="4" fill="none" stroke-linecap="round"/>',
    'Levant Shield',
    '#7d68b0',
  ),
  // A river winding through hills.
  'orontes-travel.svg': frame(
    '#0f7c7c',
    '<path d="M8 44 Q20 26 32 40 Q44 54 56 34 V56 H8 Z" fill="#d9f2f2"/><path d="M10 30 Q24 20 30 30 T54 24" stroke="#8fe0e0" stroke-width="4" fill="none"/>',
    'Orontes Travel',
    '#3b8f8f',
  ),
  // A lighthouse and its beam.
  'tyre-harbour.svg': frame(
    '#b35a12',
    '<path d="M28 20 H36 L39 52 H25 Z" fill="#fdebd9"/><rect x="26" y="14" width="12" height="6" fill="#ffd27a"/><path d="M38 16 L56 10 V22 Z" fill="#ffd27a" opacity="0.8"/>',
    'Tyre Harbour',
    '#c47c3f',
  ),
};
