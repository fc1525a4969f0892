import { SMS_LIMITS, smsInfo, smsWarnings } from '@waitlist/contract';
import './segment-meter.css';

type SegmentMeterProps = {
  /** The text exactly as it will be sent (with the opt-out line when it is added). */
  text: string;
  id?: string;
};

/**
 * What the text costs as the owner types: characters left, segments and encoding (GSM-7 160 /
 * UCS-2 70 per single text), and what carriers filter (links, shorteners, long texts).
 */
export function SegmentMeter({ text, id }: SegmentMeterProps) {
  const info = smsInfo(text);
  const warnings = smsWarnings(text);
  const single = SMS_LIMITS[info.encoding].single;
  const segments = Math.max(info.segments, 1);
  return (
    <div className="segment-meter" id={id}>
      <p className="segment-meter__line" data-testid="segment-meter">
        <span className={`segment-meter__count${info.segments > 1 ? ' segment-meter__count--over' : ''}`}>
          {info.length} / {info.segments > 1 ? info.perSegment * segments : single}
        </span>
        <span>
          {segments} segment{segments === 1 ? '' : 's'}
        </span>
        <span className="segment-meter__encoding" title={encodingHelp[info.encoding]}>
          {info.encoding}
        </span>
      </p>
      {info.encoding === 'UCS-2' ? <p className="segment-meter__note">{encodingHelp['UCS-2']}</p> : null}
      {warnings.length > 0 ? (
        <ul className="segment-meter__warnings" aria-label="Carrier warnings">
          {warnings.map((warning) => (
            <li key={warning.code} className="segment-meter__warning">
              {warning.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const encodingHelp = {
  'GSM-7': 'Plain characters: 160 per single text, 153 per segment when longer.',
  'UCS-2':
    'An emoji or special character switches the whole text to UCS-2: 70 characters per single text, 67 per segment when longer.',
} as const;
