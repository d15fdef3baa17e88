-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "disabledAt" TIMESTAMP(3),
ADD COLUMN     "disabledReason" TEXT,
ADD COLUMN     "failingSince" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "WebhookDelivery_pending_endpoint" ON "WebhookDelivery"("endpointId", "nextAttemptAt") WHERE (status = 'pending');

-- CreateIndex
CREATE INDEX "WebhookDelivery_leased" ON "WebhookDelivery"("lockedUntil") WHERE ("lockedUntil" IS NOT NULL);
