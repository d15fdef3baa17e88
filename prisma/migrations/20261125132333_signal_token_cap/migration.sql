-- CreateIndex
CREATE INDEX "SignalToken_apiKeyId_createdAt_idx" ON "SignalToken"("apiKeyId", "createdAt" DESC);
