import { useConfig } from '../../../lib/config.ts';

/** Only with the local email provider: where the "sent" email can be read. */
export function LocalMailboxNote({ reading }: { reading: 'the code' | 'the reset link' }) {
  const config = useConfig();
  if (!config.data?.localMailbox) return null;
  return (
    <p className="local-note" data-testid="local-mailbox-note">
      <svg className="local-note__icon" viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
        <path
          fill="currentColor"
          d="M2.5 5A1.5 1.5 0 0 1 4 3.5h12A1.5 1.5 0 0 1 17.5 5v10a1.5 1.5 0 0 1-1.5 1.5H4A1.5 1.5 0 0 1 2.5 15V5Zm1.7.3 5.8 4.6 5.8-4.6H4.2Zm11.8 1.6-5.5 4.4a.8.8 0 0 1-1 0L4 6.9V15h12V6.9Z"
        />
      </svg>
      <span>
        Running locally: open the dev mailbox at{' '}
        <a href="/dev/mailbox" target="_blank" rel="noreferrer">
          /dev/mailbox
        </a>{' '}
        to read {reading}
      </span>
    </p>
  );
}
