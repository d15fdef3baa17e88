/**
 * Risk score: the score's review and block thresholds per event type, with a preview over the
 * last 30 days before saving; below them, the weights fitted on this account's labels
 * (proposed with a backtest, adopted, rolled back).
 */
import { Editable } from "../../components/editable.tsx";
import { SignedIn } from "../../components/signed-in.tsx";
import { ScoreModels } from "./score-models.tsx";
import { ThresholdsSection } from "./thresholds-section.tsx";
import "../../components/console.css";
import "./risk-score.css";

export default function RiskScorePage() {
  return (
    <SignedIn>
      <h1>Risk score</h1>
      <p className="config-note">
        Every screening gets a score from 0 to 100: the points of each signal it showed, added up
        (10 points double the odds of an attack). The screening's detail lists them.
      </p>
      <Editable need="configure">
        <ThresholdsSection />
        <ScoreModels />
      </Editable>
    </SignedIn>
  );
}
