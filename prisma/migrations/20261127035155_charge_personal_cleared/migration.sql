-- When a charge's personal fields were cleared (an end user's erasure, or retention): later
-- Stripe events about the charge leave them empty.
ALTER TABLE "Transaction" ADD COLUMN     "personalClearedAt" TIMESTAMP(3);
