import { Link } from 'react-router';
import { Card } from '../../../components/ui/card.tsx';
import { useCurrentUser } from '../../../lib/auth.tsx';
import { useGetStartedProgress } from '../api/get-started-progress.ts';
import './get-started-checklist.css';
import { textNumberLink } from '../../../lib/links.ts';

type Step = { key: string; done: boolean; link: string; to: string; doneText: string; todoText: string };

/**
 * The guided start shown after onboarding: get a text number, add customers, open a first slot. Each
 * step is ticked from real state (the user's number status, the waitlist, the openings), and the whole
 * list goes away once all three are done.
 */
export function GetStartedChecklist() {
  const user = useCurrentUser();
  const progress = useGetStartedProgress();
  // While the counts load, a placeholder of the list's size holds its place, so the account form below it
  // does not jump when the list appears (issue 16: CLS on /account).
  if (progress.isPending) return <div className="get-started-placeholder" aria-hidden="true" />;
  if (progress.isError) return null;

  const steps: Step[] = [
    {
      key: 'number',
      done: user.plivoNumberStatus === 'verified',
      link: 'Get your text number',
      to: textNumberLink,
      todoText:
        'Your waitlist gets its texts from a dedicated number of your business, set up on the Billing tab.',
      doneText: 'Your text number is verified.',
    },
    {
      key: 'customers',
      done: progress.data.customers > 0,
      link: 'Add customers',
      to: '/waitlist',
      todoText: 'Add the customers who would like an earlier appointment, or import a CSV.',
      doneText: `${progress.data.customers} customer${progress.data.customers === 1 ? '' : 's'} on your waitlist.`,
    },
    {
      key: 'opening',
      done: progress.data.openings > 0,
      link: 'Open your first slot',
      to: '/openings',
      todoText: 'When someone cancels, open the slot: your waitlist gets a text and the first YES wins.',
      doneText: 'You have opened a slot.',
    },
  ];
  const doneCount = steps.filter((step) => step.done).length;
  if (doneCount === steps.length) return null;

  return (
    <Card className="get-started" data-testid="get-started-checklist">
      <header className="get-started__header">
        <h2 className="card__title" id="get-started-title">
          Get started
        </h2>
        <p className="get-started__count">
          {doneCount} of {steps.length} done
        </p>
      </header>
      <ol className="get-started__steps" aria-labelledby="get-started-title">
        {steps.map((step, index) => (
          <li
            key={step.key}
            className={`get-started__step${step.done ? ' get-started__step--done' : ''}`}
            data-done={step.done}
          >
            <span className="get-started__mark" aria-hidden="true">
              {step.done ? '✓' : index + 1}
            </span>
            <div className="get-started__text">
              {step.done ? (
                <p className="get-started__title">
                  <span className="visually-hidden">Done: </span>
                  {step.link}
                </p>
              ) : (
                <Link className="get-started__link" to={step.to}>
                  {step.link}
                </Link>
              )}
              <p className="get-started__hint">{step.done ? step.doneText : step.todoText}</p>
            </div>
          </li>
        ))}
      </ol>
    </Card>
  );
}
