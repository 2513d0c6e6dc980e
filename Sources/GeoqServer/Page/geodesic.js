// Distance and initial bearing on the WGS84 ellipsoid, for the answers the service worker gives
// while the service cannot be reached (offline-answers.js).
//
// The service ranks by Karney's geodesic (GeoqCore/KarneyGeodesic*.swift). This is Vincenty's
// inverse formula instead: some sixty lines where a port of Karney's solver would be some nine
// hundred, and on the same ellipsoid it agrees with Karney's to well under a millimetre at city
// distances (its own error is about 0.1 mm at any distance), far below the service's rounding of
// distances to the centimetre and bearings to the tenth of a degree, so that the ranking is the
// same but for features within a hair of each other. Vincenty fails to converge only for nearly
// antipodal points, which no question about a city's monuments asks.
"use strict";

const WGS84 = { a: 6378137, f: 1 / 298.257223563 };

// { distance (metres), bearing (degrees clockwise from true north, in [0, 360)) } from
// (lat1, lon1) to (lat2, lon2), in degrees.
function geodesicInverse(lat1, lon1, lat2, lon2) {
  const { a, f } = WGS84;
  const b = a * (1 - f);
  const rad = Math.PI / 180;
  const L = (lon2 - lon1) * rad;
  // Reduced latitudes.
  const U1 = Math.atan((1 - f) * Math.tan(lat1 * rad));
  const U2 = Math.atan((1 - f) * Math.tan(lat2 * rad));
  const sinU1 = Math.sin(U1), cosU1 = Math.cos(U1);
  const sinU2 = Math.sin(U2), cosU2 = Math.cos(U2);

  let lambda = L;
  let sinLambda, cosLambda, sinSigma, cosSigma, sigma, cos2Alpha, cos2SigmaM;
  for (let iteration = 0; iteration < 200; iteration++) {
    sinLambda = Math.sin(lambda);
    cosLambda = Math.cos(lambda);
    const x = cosU2 * sinLambda;
    const y = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda;
    sinSigma = Math.sqrt(x * x + y * y);
    if (sinSigma === 0) return { distance: 0, bearing: 0 };
    cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinLambda) / sinSigma;
    cos2Alpha = 1 - sinAlpha * sinAlpha;
    // On the equator cos²α is 0 and the term has no meaning: it is 0.
    cos2SigmaM = cos2Alpha !== 0 ? cosSigma - (2 * sinU1 * sinU2) / cos2Alpha : 0;
    const C = (f / 16) * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha));
    const previous = lambda;
    lambda = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
    if (Math.abs(lambda - previous) <= 1e-12) break;
  }
  const u2 = (cos2Alpha * (a * a - b * b)) / (b * b);
  const A = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
  const B = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
  const deltaSigma = B * sinSigma * (cos2SigmaM + (B / 4) * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
    - (B / 6) * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)));
  const distance = b * A * (sigma - deltaSigma);
  let bearing = Math.atan2(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) / rad;
  if (bearing < 0) bearing += 360;
  if (bearing >= 360) bearing -= 360;
  return { distance, bearing };
}
