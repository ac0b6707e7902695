import { Container, Group, Progress, Stepper, Text, UnstyledButton, VisuallyHidden, useDirection } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import type { WizardStepId } from '../../../machines/journey.routes';
import { selectWizardSteps } from '../../../machines/journey.selectors';
import { JourneyActorContext } from '../journey/journey-context';
import classes from './shell.module.css';

const STEP_LABELS: Record<WizardStepId, MessageDescriptor> = {
  travel: msg`Travel details`,
  quotes: msg`Compare quotes`,
  review: msg`Review details`,
  purchase: msg`Purchase insurance`,
};

/**
 * Mantine renders every step as a button, one that does nothing when the step cannot be jumped
 * to: screen readers offered the later steps as buttons (issue 21). Such a step is plain text.
 */
const staticStep = ({ tabIndex: _tabIndex, type: _type, onClick: _onClick, ...props }: Record<string, unknown>) => <div {...props} />;

/**
 * The four journey steps (spec §2). Done steps are links back, and say "completed" to screen
 * readers; the current one is aria-current; later steps cannot be jumped to and are plain text.
 * Below 768 px a compact bar shows "Step n of 4" with a back link instead.
 */
export function WizardHeader() {
  const { t, i18n } = useLingui();
  const steps = JourneyActorContext.useSelector(selectWizardSteps);
  const actor = JourneyActorContext.useActorRef();
  const canJump = JourneyActorContext.useSelector(
    (snapshot) => (step: WizardStepId) => snapshot.can({ type: 'wizard.jump', step }),
  );
  const { dir } = useDirection();
  const currentIndex = steps.findIndex((step) => step.status === 'current');
  if (currentIndex < 0) return null;
  const current = steps[currentIndex]!;
  const stepNumber = currentIndex + 1;
  const stepCount = steps.length;
  const previous = currentIndex > 0 ? steps[currentIndex - 1] : undefined;
  const jump = (step: WizardStepId) => actor.send({ type: 'wizard.jump', step });
  const Back = dir === 'rtl' ? IconChevronRight : IconChevronLeft;

  return (
    <nav aria-label={t`Progress`} className={classes.wizard}>
      <Container size="lg" py="md" visibleFrom="sm">
        <Stepper
          active={currentIndex}
          onStepClick={(index) => {
            const step = steps[index];
            if (step && canJump(step.id)) jump(step.id);
          }}
          size="sm"
          iconSize={32}
        >
          {steps.map((step) => (
            <Stepper.Step
              key={step.id}
              label={
                <>
                  {i18n._(STEP_LABELS[step.id])}
                  {step.status === 'done' && <VisuallyHidden> {t`(completed)`}</VisuallyHidden>}
                </>
              }
              allowStepSelect={canJump(step.id)}
              renderRoot={canJump(step.id) ? undefined : staticStep}
              aria-current={step.status === 'current' ? 'step' : undefined}
              data-testid={`wizard-step-${step.id}`}
              data-status={step.status}
            />
          ))}
        </Stepper>
      </Container>
      <Container size="lg" py="sm" hiddenFrom="sm" data-testid="wizard-mobile">
        <Group justify="space-between" wrap="nowrap" mb={8}>
          <Text fz="sm" fw={700} aria-current="step">
            {t`Step ${stepNumber} of ${stepCount}`}: {i18n._(STEP_LABELS[current.id])}
          </Text>
          {previous && canJump(previous.id) && (
            <UnstyledButton onClick={() => jump(previous.id)} className={classes.wizardBack}>
              <Back size={16} aria-hidden="true" />
              <Text span fz="sm" fw={600}>
                {i18n._(STEP_LABELS[previous.id])}
              </Text>
            </UnstyledButton>
          )}
        </Group>
        <Progress
          value={(stepNumber / stepCount) * 100}
          size="sm"
          aria-label={t`Step ${stepNumber} of ${stepCount}`}
        />
      </Container>
    </nav>
  );
}
