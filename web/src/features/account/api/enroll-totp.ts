import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase-client.ts';

export interface TotpEnrollment {
  factorId: string;
  /** An image URL (an SVG data URL) of the QR code to scan. */
  qrCode: string;
  /** The same secret as text, for apps that cannot scan. */
  secret: string;
}

/** Starts adding an authenticator app; it counts once `confirmTotp` has checked a first code. */
async function enrollTotp(): Promise<TotpEnrollment> {
  const { data: factors, error: listError } = await supabase.auth.mfa.listFactors();
  if (listError) throw listError;
  // A set-up abandoned earlier (a closed tab) would clash with this one; it was never usable anyway.
  const abandoned = factors.all.filter((f) => f.factor_type === 'totp' && f.status === 'unverified');
  for (const factor of abandoned) {
    const { error } = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    if (error) throw error;
  }
  const { data, error } = await supabase.auth.mfa.enroll({
    factorType: 'totp',
    friendlyName: 'Authenticator app',
    issuer: 'Tasklane',
  });
  if (error) throw error;
  return { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
}

export function useEnrollTotp() {
  return useMutation({ mutationFn: enrollTotp });
}
