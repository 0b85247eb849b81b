package com.example.coursescheduling.model;

/**
 * A teacher's availability rule for one slot. type UNAVAILABLE: never schedule the teacher there;
 * PREFERRED: the auto-scheduler tries these slots first. A null period means the whole day.
 */
public class SchedulingConstraint {
    public Long id;
    public Long teacherId;
    public Integer dayOfWeek;
    public Integer period;
    public String type;
}
