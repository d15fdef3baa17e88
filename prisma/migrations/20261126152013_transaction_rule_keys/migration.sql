-- The rules whose block acted on a charge, so the dashboard names the rule beside "Custom Rule".
-- Charges acted on before this keep an empty list (the dashboard then shows "Custom Rule" alone).
-- AlterTable
ALTER TABLE "Transaction" ADD COLUMN     "ruleKeys" TEXT[] DEFAULT ARRAY[]::TEXT[];
