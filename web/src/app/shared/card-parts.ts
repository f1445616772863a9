import {
  MatCard,
  MatCardActions,
  MatCardContent,
  MatCardHeader,
  MatCardTitle,
} from '@angular/material/card';

/** The parts of a titled card with actions (the account page's cards): import them as one. */
export const CARD_PARTS = [
  MatCard,
  MatCardActions,
  MatCardContent,
  MatCardHeader,
  MatCardTitle,
] as const;
