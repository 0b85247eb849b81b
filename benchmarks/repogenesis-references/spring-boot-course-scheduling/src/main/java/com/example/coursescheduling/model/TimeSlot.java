package com.example.coursescheduling.model;

import java.util.ArrayList;
import java.util.List;

/** The weekly grid: days 1 (Mon) to 5 (Fri), periods 1 to 5, each period two class hours (1-2, 3-4, ...). */
public record TimeSlot(int dayOfWeek, int period, String label) {
    public static final int DAYS = 5;
    public static final int PERIODS = 5;
    private static final String[] DAY_NAMES = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};

    public static String label(int day, int period) {
        String d = day >= 1 && day <= 7 ? DAY_NAMES[day - 1] : "Day" + day;
        return d + " " + (2 * period - 1) + "-" + (2 * period);
    }

    public static List<TimeSlot> all() {
        List<TimeSlot> slots = new ArrayList<>();
        for (int d = 1; d <= DAYS; d++) {
            for (int p = 1; p <= PERIODS; p++) {
                slots.add(new TimeSlot(d, p, label(d, p)));
            }
        }
        return slots;
    }

    public static boolean valid(Integer day, Integer period) {
        return day != null && period != null && day >= 1 && day <= DAYS && period >= 1 && period <= PERIODS;
    }
}
