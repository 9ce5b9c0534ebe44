// How a number reads in a cell, a legend or an explanation: as PyTorch prints
// it (4 decimals), whole numbers whole, the minus sign and −∞ typeset.
export function formatNumber(v, decimals = 4) {
  if (v === -Infinity) return '−∞';
  // whole numbers (a mask's 0/1, the a @ b demos' sums) as whole numbers: 7 beside 11, not 7.0000 beside 11.0
  if (Number.isInteger(v) && Math.abs(v) < 1e6) return String(v).replace('-', '−');
  const a = Math.abs(v);
  const text = a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(Math.min(decimals, 2) - 1) : v.toFixed(decimals);
  return text.replace('-', '−');
}
