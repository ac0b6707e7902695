import { Paper, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { IconBolt, IconLock, IconScale } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { PageHeading } from '../page-heading';

/** /traveller-details: the trip and the travellers. The form itself is built on this frame. */
export function TravellerDetailsScreen() {
  const { t } = useLingui();
  const promises = [
    { icon: IconScale, title: t`Compare insurers side by side`, text: t`See every plan you are eligible for, with its medical limit and benefits.` },
    { icon: IconBolt, title: t`Covered in under a minute`, text: t`Tell us about your trip once; your policy arrives by e-mail.` },
    { icon: IconLock, title: t`Pay securely`, text: t`Card payments go through a secure hosted payments page.` },
  ];
  return (
    <>
      <PageHeading
        testId="screen-traveller-details"
        title={t`Travel details`}
        intro={t`Where are you going, when, and who is travelling? We will find the plans that fit.`}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        {promises.map((promise) => (
          <Paper key={promise.title} withBorder p="lg" radius="lg">
            <ThemeIcon size={40} radius="md" variant="light" mb="sm">
              <promise.icon size={22} aria-hidden="true" />
            </ThemeIcon>
            <Text fw={700} mb={4}>
              {promise.title}
            </Text>
            <Text fz="sm" c="dimmed">
              {promise.text}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </>
  );
}
