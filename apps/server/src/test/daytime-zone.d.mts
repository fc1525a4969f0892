/** A zone where it is now between 10:00 and 15:59, `first` if it is one (daytime-zone.mjs). */
export function daytimeZone(now?: Date, first?: string): string;
