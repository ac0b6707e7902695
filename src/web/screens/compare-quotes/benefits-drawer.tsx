import { Drawer, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { QuoteView } from '../../../../machines/quotes/quotes.selectors';
import { ProviderLogo } from '../quotes-shared/provider-logo';
import { localized } from '../quotes-shared/quote-texts';
import { BenefitList, HighlightList } from './highlight-list';

/**
 * Every highlight and benefit of one plan (spec §2: side drawer, 60 %). It opens at the end
 * side: Mantine lays "right" out as flex-end, so in Arabic it comes from the left. Full width
 * on phones.
 */
export function BenefitsDrawer({ view, lang, onClose }: { view: QuoteView | null; lang: Language; onClose: () => void }) {
  const { t } = useLingui();
  const mobile = useMediaQuery('(max-width: 767px)');
  const quote = view?.quote;
  return (
    <Drawer
      opened={view !== null}
      onClose={onClose}
      position="right"
      size={mobile ? '100%' : '60%'}
      title={quote ? quote.wizard_plan_name : ''}
      closeButtonProps={{ 'aria-label': t`Close` }}
      data-testid="benefits-drawer"
    >
      {quote && (
        <Stack gap="lg" data-testid="benefits-drawer-body">
          <ProviderLogo image={quote.provider.image} name={localized(lang, quote.provider.name, quote.provider.name_ar)} />
          <Stack gap="sm">
            <Title order={3} fz="md">{t`Highlights`}</Title>
            <HighlightList highlights={quote.highlight} lang={lang} />
          </Stack>
          <Stack gap="sm">
            <Title order={3} fz="md">{t`Benefits`}</Title>
            {quote.benefits.length > 0 ? <BenefitList benefits={quote.benefits} lang={lang} /> : <Text c="dimmed">-</Text>}
          </Stack>
        </Stack>
      )}
    </Drawer>
  );
}
