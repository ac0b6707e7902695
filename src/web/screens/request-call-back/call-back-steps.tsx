import { Group, Progress, Text } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';

/**
 * The short call-back wizard's progress (spec §2, RULINGS 13): step 1 who to call, step 2 the
 * thanks. The four-step header hides on these pages, so this stands in for it.
 */
export function CallBackSteps({ step }: { step: 1 | 2 }) {
  const { t } = useLingui();
  const stepNumber = step;
  const stepCount = 2;
  const label = step === 1 ? t`Your contact details` : t`Request received`;
  return (
    <nav aria-label={t`Progress`} data-testid="call-back-steps">
      <Group justify="space-between" wrap="nowrap" mb={8}>
        <Text fz="sm" fw={700} aria-current="step">
          {t`Step ${stepNumber} of ${stepCount}`}: {label}
        </Text>
      </Group>
      <Progress value={(stepNumber / stepCount) * 100} size="sm" mb="lg" aria-label={t`Step ${stepNumber} of ${stepCount}`} />
    </nav>
  );
}
