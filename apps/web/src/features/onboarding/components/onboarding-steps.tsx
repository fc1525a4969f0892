import './onboarding.css';

const steps = ['Welcome', 'Business details'] as const;

export function OnboardingSteps({ current }: { current: 1 | 2 }) {
  return (
    <ol className="onboarding-steps" aria-label={`Step ${current} of ${steps.length}`}>
      {steps.map((label, index) => {
        const step = index + 1;
        const state = step < current ? 'done' : step === current ? 'current' : 'todo';
        return (
          <li
            key={label}
            className={`onboarding-steps__item onboarding-steps__item--${state}`}
            aria-current={state === 'current' ? 'step' : undefined}
          >
            <span className="onboarding-steps__number" aria-hidden="true">
              {state === 'done' ? '✓' : step}
            </span>
            <span className="onboarding-steps__label">{label}</span>
          </li>
        );
      })}
    </ol>
  );
}
